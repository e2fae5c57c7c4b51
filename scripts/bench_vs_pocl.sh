#!/usr/bin/env bash
# The application kernels of bench/bench_apps.cpp on Ventus and on pocl in one run, with a
# table of kernel time per kernel (the best of the repetitions: the machine may be busy).
#
#   scripts/bench_vs_pocl.sh [BUILD_DIR] [Google Benchmark flags, e.g. --benchmark_filter=scan]
#
# Four configurations: Ventus on one host thread (VENTUS_HOST_THREADS=1) and on its default
# (every host core), pocl's pthread device on one thread (POCL_MAX_PTHREAD_COUNT=1) and on
# every core. REPETITIONS (default 3) sets --benchmark_repetitions; POCL_ICD pocl's .icd.
set -euo pipefail

build=${1:-build}
shift || true
bin=$build/bench/bench_apps
ventus_icd=$build/ventus.icd
pocl_icd=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
for f in "$bin" "$ventus_icd" "$pocl_icd"; do
  [[ -e $f ]] || { echo "bench_vs_pocl.sh: $f is missing (build the bench_apps target)" >&2; exit 1; }
done
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$build/pocl-cache}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {
  local name=$1
  shift
  echo "running $name ..." >&2
  env "$@" "$bin" --benchmark_repetitions="${REPETITIONS:-3}" --benchmark_out="$out/$name.json" \
    --benchmark_out_format=json "${flags[@]}" >/dev/null
}
flags=("$@")
run ventus1 OCL_ICD_VENDORS="$ventus_icd" VENTUS_HOST_THREADS=1
run ventus OCL_ICD_VENDORS="$ventus_icd"
run pocl1 OCL_ICD_VENDORS="$pocl_icd" POCL_MAX_PTHREAD_COUNT=1
run pocl OCL_ICD_VENDORS="$pocl_icd"

echo "load: $(uptime)"
python3 - "$out" <<'EOF'
import json, sys

configs = ["ventus1", "ventus", "pocl1", "pocl"]
best = {}  # (config, kernel) -> (kernel ms, wall ms, launches)
for config in configs:
    with open(f"{sys.argv[1]}/{config}.json") as f:
        for b in json.load(f)["benchmarks"]:
            if b.get("run_type") != "iteration" or b.get("error_occurred"):
                continue
            kernel = b["run_name"].split("/")[0]
            row = (b["real_time"], b["wall_ms"], b["launches"])
            if (config, kernel) not in best or row < best[(config, kernel)]:
                best[(config, kernel)] = row

kernels = list(dict.fromkeys(k for _, k in best))  # in the binary's order
print("kernel time (ms, profiling events, best of the repetitions); wall: enqueue + finish")
head = ["kernel", "launches", "Ventus 1 thr", "Ventus all", "pocl 1 thr", "pocl all",
        "ratio 1 thr", "ratio all", "Ventus wall", "pocl wall"]
print("| " + " | ".join(head) + " |")
print("| --- " * len(head) + "|")
for k in kernels:
    get = lambda c, i=0: best.get((c, k), (float("nan"),) * 3)[i]
    ratio = lambda v, p: f"{get(v) / get(p):.1f}" if (v, k) in best and (p, k) in best else "-"
    print(f"| {k} | {get('ventus', 2):.0f} | {get('ventus1'):.2f} | {get('ventus'):.2f} | "
          f"{get('pocl1'):.3f} | {get('pocl'):.3f} | {ratio('ventus1', 'pocl1')} | "
          f"{ratio('ventus', 'pocl')} | {get('ventus', 1):.2f} | {get('pocl', 1):.3f} |")
missing = [(c, k) for c in configs for k in kernels if (c, k) not in best]
if missing:
    print("missing (failed or wrong result):", missing)
    sys.exit(1)
EOF
