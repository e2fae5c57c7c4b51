#!/usr/bin/env bash
# The main job on the built-in example: assemble examples/saxpy.s, run it on the simulated
# device over 5000 elements (y = 2.5 * x + y, one fp32 fused multiply-add per element), and
# check every element against the same computation done here on the host.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${VENTUS_BUILD_DIR:-build}
ventus=$build/tools/ventus/ventus
out=$build/examples
mkdir -p "$out"
n=5000
a=2.5

"$ventus" as -o "$out/saxpy.elf" examples/saxpy.s
echo "assembled examples/saxpy.s -> $out/saxpy.elf"

# Inputs: multiples of 1/1024 in [-8, 8), written with all their digits, so that a * x + y
# is exact both in the kernel's fp32 and in awk's double arithmetic.
awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "%.10f\n", ((i * 7919 + 13) % 16384 - 8192) / 1024 }' > "$out/x.txt"
awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "%.10f\n", ((i * 104729 + 7) % 16384 - 8192) / 1024 }' > "$out/y.txt"

# 5000 work-items rounded up to whole workgroups of 128; the kernel skips i >= n.
"$ventus" run "$out/saxpy.elf" --kernel saxpy --global 5120 --local 128 --threads 32 \
  --arg "x=f32[]:text:$out/x.txt" --arg "y=f32[]:text:$out/y.txt" --arg "f32:$a" --arg "i32:$n" \
  --dump "y=$out/result.txt"

# Host check: the expected value is an exact float, so both sides print the same digits.
paste "$out/x.txt" "$out/y.txt" "$out/result.txt" | awk -v a=$a -v n=$n '
  { expected = sprintf("%.9g", a * $1 + $2)
    if (NR <= 4) printf "  y[%d] = %s * %s + %s = %s\n", NR - 1, a, $1 + 0, $2 + 0, $3
    if (expected != $3) { if (bad < 5) printf "MISMATCH y[%d]: expected %s, got %s\n", NR - 1, expected, $3; bad++ } }
  END { if (NR != n) { printf "expected %d results, got %d\n", n, NR; exit 1 }
        if (bad) { printf "saxpy: %d of %d elements differ from the host result\n", bad, n; exit 1 }
        printf "saxpy: all %d elements equal the host result\n", n }'

# The same computation from OpenCL C, by an unmodified OpenCL host program through the ICD
# loader on the Ventus platform (docs/opencl.md); it checks its results itself.
if [ -x "$build/examples/opencl_saxpy" ]; then
  echo "OpenCL: examples/opencl/saxpy.c on the Ventus platform"
  OCL_ICD_VENDORS="$(cd "$build" && pwd)/ventus.icd" "$build/examples/opencl_saxpy"
fi
