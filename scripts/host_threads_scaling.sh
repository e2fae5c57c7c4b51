#!/usr/bin/env bash
# How the simulator scales with host threads on this machine (docs/performance.md, "Sixteen
# host threads"): `ventus bench` on 1, 2, 4, ... host threads, and first the machine's own
# ceiling: N independent one-thread `ventus bench` processes at once, each one's rate against
# a lone one's (turbo, shared cores and memory bandwidth cap this, not the simulator). Prints
# M thread-insn/s per kernel and the ratio to one thread.
#
#   scripts/host_threads_scaling.sh [VENTUS] [MAX_THREADS]     (from the repository root)
#
# MAX_THREADS defaults to the host's cores. Environment: SCALE (default 64), REPEAT (3), JIT
# (default force: every block translated at its first start; off: the interpreter), SMS
# (default 2), KERNELS (default "saxpy reduce matmul collatz aluloop"). With 2 SMs, kernels of
# 8-warp workgroups have 8 workgroup slots, so they use at most 8 host threads; matmul and
# aluloop have 16.
set -euo pipefail
ventus=${1:-build/tools/ventus/ventus}
max=${2:-$(nproc)}
scale=${SCALE:-64}
repeat=${REPEAT:-3}
jit=${JIT:-force}
sms=${SMS:-2}
kernels=${KERNELS:-saxpy reduce matmul collatz aluloop}
[ -x "$ventus" ] || { echo "$0: $ventus is not an executable (build first)" >&2; exit 1; }
case $max in '' | *[!0-9]* | 0) echo "$0: MAX_THREADS must be a positive number, not '$max'" >&2; exit 1 ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

k_args=()
for k in $kernels; do k_args+=(-k "$k"); done

# bench FILE HOST_THREADS: kernel and M thread-insn/s per line; fails on a wrong result.
bench() {
  "$ventus" bench "${k_args[@]}" --scale "$scale" --repeat "$repeat" --jit "$jit" --sms "$sms" \
    --host-threads "$2" > "$1.raw"
  if grep -q -v -e '^kernel' -e ' ok$' -e 'host thread' "$1.raw"; then
    echo "$0: a kernel failed:" >&2
    cat "$1.raw" >&2
    exit 1
  fi
  awk '/ ok$/ {print $1, $(NF-1)}' "$1.raw" > "$1"
}

counts=()
for ((h = 1; h < max; h *= 2)); do counts+=("$h"); done
counts+=("$max")

echo "host: $(nproc) cores; $ventus bench --scale $scale --repeat $repeat --jit $jit --sms $sms" >&2
echo "the machine's ceiling: $max one-thread processes at once, against one alone" >&2
bench "$out/alone" 1
pids=()
for ((p = 0; p < max; p++)); do
  bench "$out/together.$p" 1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || { echo "$0: a one-thread process failed" >&2; exit 1; }; done
for h in "${counts[@]}"; do
  echo "$h host thread(s)" >&2
  bench "$out/threads.$h" "$h"
done

# rate_of FILE KERNEL: the kernel's M thread-insn/s in a file that bench wrote.
rate_of() { awk -v k="$2" '$1 == k {print $2}' "$1"; }

# One row per kernel: the ceiling (the slowest process's rate x N / the lone rate), then each
# thread count's rate and its ratio to one thread.
header="| kernel | $max processes, ceiling |"
rule="| --- | ---: |"
for h in "${counts[@]}"; do
  header+=" $h thr | x |"
  rule+=" ---: | ---: |"
done
echo "$header"
echo "$rule"
for k in $kernels; do
  alone=$(rate_of "$out/alone" "$k")
  slowest=$(for ((p = 0; p < max; p++)); do rate_of "$out/together.$p" "$k"; done | sort -g | head -1)
  row="| $k | $(awk -v s="$slowest" -v a="$alone" -v n="$max" 'BEGIN {printf "%.1fx", s * n / a}') |"
  one=$(rate_of "$out/threads.1" "$k")
  for h in "${counts[@]}"; do
    rate=$(rate_of "$out/threads.$h" "$k")
    row+=" $(printf '%.0f' "$rate") | $(awk -v r="$rate" -v o="$one" 'BEGIN {printf "%.1fx", r / o}') |"
  done
  echo "$row"
done
