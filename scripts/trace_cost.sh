#!/bin/sh
# The cost of the commit log (--trace) on the bench kernels: `ventus run` untraced (with
# --jit off, the interpreter, which is what a traced launch runs, and with --jit on, the
# default), traced to /dev/null and traced to a file, one host thread, best of REPEAT runs
# each; ratios against the untraced --jit off run. Two figures:
# the launch's wall time from the run's summary (meaningful on a quiet machine), and its CPU
# time: the process's task-clock (perf stat) less that of the same command on one workgroup
# (assembling, loading and filling the buffers), which a busy machine does not inflate.
# Usage: scripts/trace_cost.sh [VENTUS] [REPEAT] [TRACE_FILE]   (from the repository root);
# KERNELS="saxpy matmul" limits it to those kernels.
set -eu
ventus=${1:-build/tools/ventus/ventus}
repeat=${2:-5}
file=${3:-${TMPDIR:-/tmp}/ventus-trace-cost.$$}
stat=${TMPDIR:-/tmp}/ventus-trace-cost-stat.$$
trap 'rm -f "$file" "$stat"' EXIT

min() { echo "$1 ${2:-$1}" | awk '{print ($1 < $2) ? $1 : $2}'; }

# best WALL CPU of: the run's arguments (global size first), then the sink
measure() {
  global=$1
  sink=$2
  shift 2
  wall=
  cpu=
  i=0
  trace=
  case $sink in
    none) trace="--jit off" ;;
    jit) trace="--jit on" ;;
    *) trace="--trace $sink" ;;
  esac
  while [ "$i" -lt "$repeat" ]; do
    # shellcheck disable=SC2086 # trace is two words
    t=$(perf stat -x, -e task-clock -o "$stat" "$ventus" run -g "$global" "$@" --host-threads 1 \
      $trace | awk '$1 == "time" {print $2}')
    c=$(awk -F, '$3 == "task-clock" {print $1 / 1000}' "$stat")
    wall=$(min "$t" "$wall")
    cpu=$(min "$c" "$cpu")
    i=$((i + 1))
  done
  echo "$wall $cpu"
}

run_kernel() {  # name, global size, one workgroup's global size, then the other arguments
  case " ${KERNELS:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
  name=$1
  global=$2
  small=$3
  shift 3
  fixed=$(measure "$small" none "$@" | awk '{print $2}')
  for sink in none jit /dev/null "$file"; do
    r=$(measure "$global" "$sink" "$@")
    wall=${r% *}
    cpu=$(echo "${r#* } $fixed" | awk '{printf "%.4f", $1 - $2}')
    [ "$sink" = none ] && { base_wall=$wall; base_cpu=$cpu; }
    label=$sink
    [ "$sink" = none ] && label="untraced --jit off"
    [ "$sink" = jit ] && label="untraced --jit on"
    [ "$sink" = "$file" ] && label="file ($(wc -c <"$file") bytes)"
    echo "$name $label: wall $wall s ($(echo "$wall $base_wall" | awk '{printf "%.1f", $1 / $2}')x)," \
      "cpu $cpu s ($(echo "$cpu $base_cpu" | awk '{printf "%.1f", $1 / $2}')x)"
  done
}

n=262144
run_kernel saxpy $n 256 examples/saxpy.s -k saxpy -l 256 -a "x=f32[]:random:$n" \
  -a "y=f32[]:random:$n:2" -a f32:2.5 -a i32:$n
run_kernel vecadd $n 256 examples/vecadd.s -k vecadd -l 256 -a "f32[]:random:$n" \
  -a "f32[]:random:$n:2" -a "f32[]:zeros:$n" -a i32:$n
run_kernel reduce $n 256 bench/kernels/reduce.s -k reduce -l 256 -a "i32[]:random:$n" \
  -a "i32[]:zeros:$((n / 256))"
run_kernel matmul 64,64 16,16 bench/kernels/matmul.s -k matmul -l 16,16 \
  -a "f32[]:random:4096" -a "f32[]:random:4096:2" -a "f32[]:zeros:4096" -a i32:64
run_kernel collatz 16384 256 bench/kernels/collatz.s -k collatz -l 256 -a "u32[]:zeros:16384" \
  -a u32:16384 -a u32:500
