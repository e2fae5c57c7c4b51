#!/usr/bin/env bash
# The application kernels of bench/bench_apps.cpp on Ventus and on pocl in one run, with a
# table of kernel time per kernel (the best of the repetitions: the machine may be busy).
#
#   scripts/bench_vs_pocl.sh [BUILD_DIR] [Google Benchmark flags, e.g. --benchmark_filter=scan]
#
# Four configurations: Ventus on one host thread (VENTUS_HOST_THREADS=1) and on its default
# (every host core), pocl's pthread device on one thread (POCL_MAX_PTHREAD_COUNT=1) and on
# every core. The four run in turn, ROUNDS times (default 2), each with
# --benchmark_repetitions=REPETITIONS (default 3); the table has the best of them all, the
# figure least disturbed by other work on the machine. POCL_ICD: pocl's .icd file.
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
  echo "round $round: $name" >&2
  env "$@" "$bin" --benchmark_repetitions="${REPETITIONS:-3}" --benchmark_out="$out/$name.$round.json" \
    --benchmark_out_format=json "${flags[@]}" >/dev/null 2>"$out/stderr" || { cat "$out/stderr" >&2; exit 1; }
}
flags=("$@")
for ((round = 1; round <= ${ROUNDS:-2}; ++round)); do
  run ventus1 OCL_ICD_VENDORS="$ventus_icd" VENTUS_HOST_THREADS=1
  run ventus OCL_ICD_VENDORS="$ventus_icd"
  run pocl1 OCL_ICD_VENDORS="$pocl_icd" POCL_MAX_PTHREAD_COUNT=1
  run pocl OCL_ICD_VENDORS="$pocl_icd"
done

echo "load: $(uptime)"
python3 - "$out" <<'EOF'
import glob, json, math, sys

configs = ["ventus1", "ventus", "pocl1", "pocl"]
best = {}  # (config, kernel) -> (kernel ms, wall ms, launches), the lowest kernel time
devices = {}
for config in configs:
    for path in sorted(glob.glob(f"{sys.argv[1]}/{config}.*.json")):
        with open(path) as f:
            run = json.load(f)
        devices[config] = run["context"].get("opencl_device", "?")
        for b in run["benchmarks"]:
            if b.get("run_type") != "iteration" or b.get("error_occurred"):
                continue
            kernel = b["run_name"].split("/")[0]
            row = (b["real_time"], b["wall_ms"], b["launches"])
            best[(config, kernel)] = min(row, best.get((config, kernel), row))

for config in configs:
    print(f"{config}: {devices.get(config, '?')}")
kernels = list(dict.fromkeys(k for _, k in best))  # in the binary's order
print("kernel time: ms of the profiling events, the best run; wall: enqueue to clFinish, ms")
head = ["kernel", "launches", "Ventus 1 thread", "Ventus all", "pocl 1 thread", "pocl all",
        "ratio 1 thread", "ratio all", "Ventus wall", "pocl wall"]
print("| " + " | ".join(head) + " |")
print("| --- " + "| ---: " * (len(head) - 1) + "|")
ratios = {"1": [], "all": []}
for k in kernels:
    def get(config, field=0):
        return best.get((config, k), (math.nan,) * 3)[field]
    one, every = get("ventus1") / get("pocl1"), get("ventus") / get("pocl")
    ratios["1"].append(one)
    ratios["all"].append(every)
    print(f"| {k} | {get('ventus', 2):.0f} | {get('ventus1'):.2f} | {get('ventus'):.2f} | "
          f"{get('pocl1'):.3f} | {get('pocl'):.3f} | {one:.1f} | {every:.1f} | "
          f"{get('ventus', 1):.2f} | {get('pocl', 1):.3f} |")
geomean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print(f"geometric mean of the ratios: {geomean(ratios['1']):.1f} (1 thread), "
      f"{geomean(ratios['all']):.1f} (all cores)")
missing = [(c, k) for c in configs for k in kernels if (c, k) not in best]
if missing:
    print("missing (failed or wrong result):", missing)
    sys.exit(1)
EOF
