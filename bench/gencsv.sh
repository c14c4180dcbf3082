#!/bin/bash
# The synthetic SkyPilot-format vms.csv of the benchmarks, N GPU rows, to
# stdout (bench/import.sh, bench/grouped.sh).
#
# usage: bench/gencsv.sh N
#
# Shaped like the real catalogs (columns of lambda/vms.csv, 8 GPU models,
# 1-8 GPUs, prices to the cent, a region per row) and adversarial for the
# per-SKU caches: SKUs cycle row by row instead of being grouped as real
# catalogs group them.  776 SKUs (8 models, each with its count, x 97),
# each in N / 776 regions of its own.
set -euo pipefail
awk -v n="${1:?usage: gencsv.sh N}" 'BEGIN {
	print "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice"
	split("H100 A100 L4 A10G RTX4090 V100 T4 L40S", g, " ")
	for (i = 0; i < n; i++) {
		k = g[i % 8 + 1]; c = 2 ^ (i % 4)
		printf "gpu_%dx_%s_%d,%s,%d,%d.0,%d.0,%.2f,region-%d,,%.2f\n", c, k, i % 97, k, c,
			8 * c, 64 * c, 0.5 + (i % 1000) / 100.0, int(i / 97), 0.3 + (i % 700) / 100.0
	} }'
