(function () {
'use strict';
var t0 = performance.now();
var doc = document, root = doc.documentElement;
var T = doc.getElementById('t'), B = T.tBodies[0];
var R = Array.prototype.slice.call(B.rows);
/* the rows past the first ones wait in a <template>: parsed, not laid out */
var rest = doc.getElementById('rest');
if (rest) {
  R = R.concat(Array.prototype.slice.call(rest.content.querySelectorAll('tr')));
  doc.getElementById('more').hidden = true;
}
var N = R.length, STEP = 1000, limit = STEP, order = R.slice(), match = [];
var H = T.tHead.rows[0].cells, K = {}, i;
for (i = 0; i < H.length; i++) K[H[i].getAttribute('data-k')] = i;
for (i = 0; i < N; i++) R[i].i = i;
var G = JSON.parse(doc.getElementById('gpus').textContent);
var C = JSON.parse(doc.getElementById('caps').textContent);
var cols = {};
/* a column's values (data-v, else the text), read once */
function col(k) {
  if (!cols[k]) {
    var c = K[k], a = new Array(N);
    for (var j = 0; j < N; j++) {
      var d = R[j].cells[c], v = d.getAttribute('data-v');
      a[j] = v === null ? d.textContent : v;
    }
    cols[k] = a;
  }
  return cols[k];
}
function $(id) { return doc.getElementById(id); }
function norm(s) { return String(s).toLowerCase().replace(/[^a-z0-9]/g, ''); }
var VENDORS = {nvidia: 1, amd: 1, intel: 1, google: 1};
G.forEach(function (m) {
  m.n = {};
  m.n[norm(m.id)] = 1;
  m.a.forEach(function (a) { m.n[norm(a)] = 1; });
  m.words = (m.f + ' ' + m.a.join(' ')).toLowerCase().split(/[^a-z0-9]+/);
});
function memOk(m, lo, hi, one) {
  if (one) return Math.abs(m.m - lo) <= Math.max(2, lo * 0.08);
  return (isNaN(lo) || m.m >= lo) && (isNaN(hi) || m.m <= hi);
}
/* one name of a --gpu value: the models its words fit (docs/GPUS.md) */
function names(word) {
  var n = norm(word), out = [];
  if (!n) return out;
  G.forEach(function (m) {
    var f = norm(m.f);
    if (m.n[n] || f === n) { out.push(m); return; }
    if (n.indexOf(f) === 0 && f) {
      var rest = n.slice(f.length), ok = true;
      var re = /(sxm\d*|pcie|nvl|\d+gb?)/g, got = rest.replace(re, '');
      if (got) return;
      (rest.match(re) || []).forEach(function (x) {
        if (/^\d/.test(x)) ok = ok && memOk(m, parseFloat(x), NaN, true);
        else ok = ok && norm(m.ff + m.id).indexOf(x.replace(/\d+$/, '')) >= 0;
      });
      if (ok) out.push(m);
    }
  });
  if (!out.length && /^\d+$/.test(n)) {
    var fams = {};
    G.forEach(function (m) { if (m.words.indexOf(n) >= 0) fams[m.f] = 1; });
    if (Object.keys(fams).length === 1)
      G.forEach(function (m) { if (fams[m.f]) out.push(m); });
  }
  return out;
}
function range(s) {
  var m = /^(\d*)\.\.(\d*)$/.exec(s);
  return m ? [m[1] ? +m[1] : NaN, m[2] ? +m[2] : NaN] : null;
}
/* the CLI's GPU grammar: NAME[,NAME][:QUALIFIER]... -> {ids, lo, hi} or {err} */
function spec(text) {
  var parts = text.trim().split(':'), o = {ids: null, lo: NaN, hi: NaN};
  var vendor = null, mlo = NaN, mhi = NaN, mone = false, list = [];
  var qual = function (q, first) {
    var r, g = /^(\d+(?:\.\d+)?)gb$/.exec(q);
    if (VENDORS[q]) { vendor = q; return true; }
    if (g) { mlo = +g[1]; mone = true; return true; }
    g = /^(\d*)(?:gb)?\.\.(\d*)(?:gb)?$/.exec(q);
    if (g && /gb/.test(q)) { mlo = g[1] ? +g[1] : NaN; mhi = g[2] ? +g[2] : NaN; return true; }
    if (first) return false;
    if (/^\d+$/.test(q)) { o.lo = o.hi = +q; return +q > 0; }
    if ((r = range(q))) { o.lo = r[0]; o.hi = r[1]; return true; }
    return false;
  };
  var first = parts[0].split(',');
  for (var k = 0; k < first.length; k++) {
    var w = first[k].trim().toLowerCase();
    if (!w) continue;
    if (!qual(w, true)) {
      var ms = names(w);
      if (!ms.length) return {err: 'unknown GPU \u2018' + w + '\u2019'};
      list = list.concat(ms);
    }
  }
  for (k = 1; k < parts.length; k++) {
    var q = parts[k].trim().toLowerCase();
    if (q && !qual(q, false)) return {err: 'not a count, memory or vendor: \u2018' + q + '\u2019'};
  }
  if (!list.length && (vendor || !isNaN(mlo) || !isNaN(mhi))) list = G;
  if (list.length) {
    o.ids = {};
    list.forEach(function (m) {
      if ((!vendor || m.v === vendor) && memOk(m, mlo, mhi, mone)) o.ids[m.id] = 1;
    });
  }
  return o;
}
function fill(id, k) {
  var seen = {}, v = col(k), s = $(id), keys = [];
  for (var j = 0; j < N; j++) if (v[j] !== '' && !seen[v[j]]) { seen[v[j]] = 1; keys.push(v[j]); }
  keys.sort().forEach(function (x) {
    var o = doc.createElement('option'); o.value = o.textContent = x; s.appendChild(o);
  });
}
fill('gpu', 'gpu'); fill('provider', 'provider'); fill('geo', 'geo'); fill('country', 'country');
C.forEach(function (c) {
  var o = doc.createElement('option'); o.value = c.o.slice(2); o.textContent = c.o;
  $('cap').appendChild(o);
});
var F = $('f'), FIELDS = ['q', 'gpu', 'n', 'provider', 'geo', 'country', 'cap', 'unk', 'max'];
F.hidden = false;
var sortKey = null, sortDesc = false;
function state() {
  var s = [];
  FIELDS.forEach(function (f) {
    var e = $(f), v = e.type === 'checkbox' ? (e.checked ? '1' : '') : e.value;
    if (v) s.push(f + '=' + encodeURIComponent(v));
  });
  if (sortKey) s.push('sort=' + (sortDesc ? '-' : '') + sortKey);
  return s.join('&');
}
function tally(map, p) { map[p] = (map[p] || 0) + 1; }
function who(map) {
  return Object.keys(map).sort(function (a, b) { return map[b] - map[a] || (a < b ? -1 : 1); })
    .slice(0, 5).map(function (p) { return p + ' ' + map[p]; }).join(', ');
}
/* the table: the first `limit` rows that match, in the order sorted */
function draw() {
  var frag = doc.createDocumentFragment(), k = Math.min(limit, match.length);
  for (var j = 0; j < k; j++) frag.appendChild(match[j]);
  B.textContent = '';
  B.appendChild(frag);
  $('shown').textContent = match.length + ' of ' + N + ' rows match' +
    (k < match.length ? '; the first ' + k + ' shown' : '');
  $('next').hidden = k >= match.length;
}
/* show the rows every filter keeps; count those a filter left out for want of a fact */
function apply() {
  var t = performance.now(), sp = spec($('q').value), tests = [];
  $('qerr').textContent = sp.err || '';
  var gpuv = col('gpu'), cnt = col('gpu_count'), prov = col('provider');
  if (sp.ids) tests.push(function (j) { return sp.ids[gpuv[j]] === 1; });
  if (!isNaN(sp.lo)) tests.push(function (j) { return +cnt[j] >= sp.lo; });
  if (!isNaN(sp.hi)) tests.push(function (j) { return +cnt[j] <= sp.hi; });
  var eq = function (id, k) {
    var want = $(id).value, v = want && col(k);
    if (want) tests.push(function (j) { return v[j] === want; });
  };
  eq('gpu', 'gpu'); eq('provider', 'provider');
  var n = parseFloat($('n').value), max = parseFloat($('max').value);
  if (!isNaN(n)) tests.push(function (j) { return +cnt[j] >= n; });
  if (!isNaN(max)) {
    var pr = col('price_hr');
    tests.push(function (j) { return pr[j] !== '' && +pr[j] <= max; });
  }
  /* a fact filter: [label, values, accept, unknown] */
  var facts = [], unk = $('unk').checked, omit = [];
  if ($('geo').value) facts.push(['geography ' + $('geo').value, col('geo'), [$('geo').value]]);
  if ($('country').value)
    facts.push(['country ' + $('country').value, col('country'), [$('country').value]]);
  C.forEach(function (c) {
    if ($('cap').value === c.o.slice(2)) facts.push([c.o, col(c.k), c.a]);
  });
  facts.forEach(function (f) { f.push({}, 0); });
  match = [];
  for (var x = 0; x < N; x++) {
    var ok = true, j = order[x].i;
    for (var k = 0; ok && k < tests.length; k++) ok = tests[k](j);
    for (k = 0; ok && k < facts.length; k++) {
      var v = facts[k][1][j];
      if (facts[k][2].indexOf(v) >= 0) continue;
      if (v === '' || v === 'unknown') {
        facts[k][4]++; tally(facts[k][3], prov[j]);
        ok = unk;
      } else ok = false;
    }
    if (ok) match.push(order[x]);
  }
  facts.forEach(function (f) {
    if (f[4]) omit.push(f[0] + ' ' + f[4] + ' row' + (f[4] === 1 ? '' : 's') + ' (' + who(f[3]) + ')');
  });
  limit = STEP;
  draw();
  $('omit').textContent = omit.length ? (unk ? 'kept though unknown: ' : 'left out as unknown, not as no: ') +
    omit.join('; ') + (unk ? '' : '; \u201cinclude unknown\u201d keeps them') : '';
  var s = state();
  if (location.hash.slice(1) !== s) history.replaceState(null, '', s ? '#' + s : location.pathname);
  return performance.now() - t;
}
function sortBy(k, desc) {
  var t = performance.now(), v = col(k), num = H[K[k]].getAttribute('data-t') === 'n';
  order = R.slice();
  order.sort(function (a, b) {
    var x = v[a.i], y = v[b.i];
    if (x === '' || y === '') return x === y ? a.i - b.i : x === '' ? 1 : -1;
    var c = num ? x - y : x < y ? -1 : x > y ? 1 : 0;
    return (desc ? -c : c) || a.i - b.i;
  });
  for (var j = 0; j < H.length; j++) {
    H[j].removeAttribute('aria-sort');
    H[j].removeAttribute('data-dir');
  }
  H[K[k]].setAttribute('aria-sort', desc ? 'descending' : 'ascending');
  H[K[k]].setAttribute('data-dir', desc ? '\u25bc' : '\u25b2');
  sortKey = k; sortDesc = desc;
  return performance.now() - t;
}
T.tHead.addEventListener('click', function (e) {
  var th = e.target.closest('th');
  if (!th) return;
  var k = th.getAttribute('data-k');
  sortBy(k, k === sortKey ? !sortDesc : false);
  apply();
});
$('next').addEventListener('click', function () { limit += STEP; draw(); });
F.addEventListener('input', apply);
F.addEventListener('change', apply);
$('reset').addEventListener('click', function () {
  FIELDS.forEach(function (f) { var e = $(f); if (e.type === 'checkbox') e.checked = false; else e.value = ''; });
  apply();
});
/* the page's age, now */
var built = Date.parse($('built').getAttribute('datetime'));
if (!isNaN(built)) {
  var h = Math.round((Date.now() - built) / 36e5);
  $('age').textContent = h < 48 ? ' (' + h + ' h ago)' : ' (' + Math.round(h / 24) + ' days ago)';
}
/* #q=H100:8&provider=lambda&sort=-price_hr: a link to a view */
var tLoad = performance.now(), tSort = 0;
location.hash.slice(1).split('&').forEach(function (kv) {
  var p = kv.indexOf('='), k = kv.slice(0, p), v = decodeURIComponent(kv.slice(p + 1));
  if (k === 'sort') tSort = sortBy(v.replace(/^-/, ''), v[0] === '-');
  else if (FIELDS.indexOf(k) >= 0) {
    var e = $(k);
    if (e.type === 'checkbox') e.checked = v === '1'; else e.value = v;
  }
});
var tFilter = apply();
root.setAttribute('data-load-ms', tLoad.toFixed(0));
root.setAttribute('data-setup-ms', (tLoad - t0).toFixed(0));
root.setAttribute('data-filter-ms', tFilter.toFixed(0));
root.setAttribute('data-sort-ms', tSort.toFixed(0));
}());
