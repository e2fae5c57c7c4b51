#!/usr/bin/env python3
"""Which OpenCL C builtins the Ventus builtin library defines.

Compares the functions clang's opencl-c.h declares for the device's language level
(OpenCL C 3.0 with src/compiler/lib/device_features.h, the library's own flags) with
the symbols of the linked library bitcode, and prints, per builtin name, how many of
its overloads are defined. double and half arithmetic variants are left out (the device
has neither); so are the families other parts of the compiler provide (work-item
functions, barriers and fences, printf) and those the device lacks (images, pipes,
subgroups, work-group collectives).

  scripts/builtin_coverage.py build/src/compiler/ventus_builtins.bc [--missing]
"""
import json
import os
import re
import subprocess
import sys

LLVM_BIN = "/usr/lib/llvm-15/bin"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "src", "compiler", "lib")

EXTENSIONS = ("-cl-ext=-all,+cl_khr_global_int32_base_atomics,"
              "+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"
              "+cl_khr_local_int32_extended_atomics,+cl_khr_byte_addressable_store,"
              "+__opencl_c_int64,+__opencl_c_atomic_order_acq_rel,"
              "+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device,"
              "+__opencl_c_program_scope_global_variables")

NOT_OURS = re.compile(
    r"^(get_\w+|barrier|work_group_barrier|mem_fence|read_mem_fence|write_mem_fence|"
    r"atomic_work_item_fence|printf|"
    r"\w*image\w*|sub_group\w*|work_group_\w+|\w*pipe\w*|enqueue_\w+|\w*ndrange\w*|"
    r"\w*_event|is_valid_\w+|capture_event_profiling_info|to_global|to_local|"
    r"to_private|get_fence|intel_\w+|dot_\w+|bit_reverse|bitfield_\w+)$")


def declared():
    resource = subprocess.check_output([f"{LLVM_BIN}/clang", "-print-resource-dir"],
                                       text=True).strip()
    empty = "/tmp/builtin_coverage_empty.cl"
    open(empty, "w").close()
    out = subprocess.run(
        [f"{LLVM_BIN}/clang", "-cc1", "-triple", "spir-unknown-unknown", "-cl-std=CL3.0",
         EXTENSIONS, "-finclude-default-header", "-resource-dir", resource,
         "-internal-isystem", f"{resource}/include", "-include",
         os.path.join(LIB, "device_features.h"), "-fsyntax-only", "-ast-dump=json",
         "-x", "cl", empty],
        capture_output=True, text=True).stdout  # image declarations error out; fine
    decls = {}
    for node in json.loads(out)["inner"]:
        if node.get("kind") != "FunctionDecl" or "mangledName" not in node:
            continue
        name, sig = node["name"], node["type"]["qualType"]
        if NOT_OURS.match(name):
            continue
        if "double" in sig:
            continue
        # Removed by device_features.h: float atomics (cl_ext_float_atomics), integer dot
        # products (cl_khr_integer_dot_product).
        if name.startswith("atomic_fetch_") and "atomic_float" in sig:
            continue
        if name == "dot" and "float" not in sig:
            continue
        if "half" in sig and not re.match(r"^v(load|store)a?_half", name):
            continue
        decls[node["mangledName"]] = (name, sig)
    return decls


def defined(bitcode):
    out = subprocess.check_output([f"{LLVM_BIN}/llvm-nm", "--defined-only", bitcode], text=True)
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    decls = declared()
    have = defined(sys.argv[1])
    by_name = {}
    for mangled, (name, sig) in decls.items():
        entry = by_name.setdefault(name, [0, 0, []])
        entry[0] += 1
        if mangled in have:
            entry[1] += 1
        else:
            entry[2].append(sig)
    complete = sum(1 for e in by_name.values() if e[0] == e[1])
    total_decl = sum(e[0] for e in by_name.values())
    total_def = sum(e[1] for e in by_name.values())
    print(f"{complete} of {len(by_name)} builtin names complete; "
          f"{total_def} of {total_decl} overloads defined")
    for name in sorted(by_name):
        n, d, missing = by_name[name]
        if d != n:
            print(f"  {name}: {d}/{n}")
            if "--missing" in sys.argv:
                for sig in missing[:8]:
                    print(f"      missing {sig}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
