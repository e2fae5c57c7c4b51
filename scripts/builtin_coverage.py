#!/usr/bin/env python3
"""Which OpenCL C builtins the Ventus builtin library defines.

Compares the functions clang's opencl-c.h declares for the device's language level
(OpenCL C 3.0 with src/compiler/lib/device_features.h, the library's own flags) with
the symbols of the linked library bitcode, and prints, per builtin name, how many of
its overloads are defined. The half overloads (cl_khr_fp16) are left out of this count:
the front end promotes most of them to their float overloads (docs/compiler.md); so are
the families other parts of the compiler provide (work-item functions, barriers and
fences, printf) and those the device lacks (images, pipes, subgroups, work-group
collectives).

  scripts/builtin_coverage.py build/src/compiler/ventus_builtins.bc [--missing]

With --compile, every overload of OpenCL C 1.2 the device has (the same list, at
-cl-std=CL1.2, half overloads included) is called from a kernel of its own, and `ventus cc` must compile them all
at each optimization level given (default -O0 and -O2); exit status 1 lists the ones
that do not build:

  scripts/builtin_coverage.py --compile build/tools/ventus/ventus [-O0 -O2 ...]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

LLVM_BIN = "/usr/lib/llvm-15/bin"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "src", "compiler", "lib")

EXTENSIONS = ("-cl-ext=-all,+cl_khr_global_int32_base_atomics,"
              "+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"
              "+cl_khr_local_int32_extended_atomics,+cl_khr_byte_addressable_store,"
              "+cl_khr_fp64,+cl_khr_fp16,+__opencl_c_int64,+__opencl_c_fp64,"
              "+__opencl_c_atomic_order_acq_rel,"
              "+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device,"
              "+__opencl_c_program_scope_global_variables")

NOT_OURS = re.compile(
    r"^(get_\w+|barrier|work_group_barrier|mem_fence|read_mem_fence|write_mem_fence|"
    r"atomic_work_item_fence|printf|"
    r"\w*image\w*|sub_group\w*|work_group_\w+|\w*pipe\w*|enqueue_\w+|\w*ndrange\w*|"
    r"\w*_event|is_valid_\w+|capture_event_profiling_info|to_global|to_local|"
    r"to_private|get_fence|intel_\w+|dot_\w+|bit_reverse|bitfield_\w+)$")


def declared(standard="CL3.0", with_half=False):
    resource = subprocess.check_output([f"{LLVM_BIN}/clang", "-print-resource-dir"],
                                       text=True).strip()
    empty = "/tmp/builtin_coverage_empty.cl"
    open(empty, "w").close()
    out = subprocess.run(
        [f"{LLVM_BIN}/clang", "-cc1", "-triple", "spir-unknown-unknown", f"-cl-std={standard}",
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
        # Removed by device_features.h: float atomics (cl_ext_float_atomics), integer dot
        # products (cl_khr_integer_dot_product).
        if name.startswith("atomic_fetch_") and "atomic_float" in sig:
            continue
        if name == "dot" and "float" not in sig and "double" not in sig:
            continue
        if not with_half and "half" in sig and not re.match(r"^v(load|store)a?_half", name):
            continue
        decls[node["mangledName"]] = (name, sig)
    return decls


def defined(bitcode):
    out = subprocess.check_output([f"{LLVM_BIN}/llvm-nm", "--defined-only", bitcode], text=True)
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def split_parameters(text):
    parameters, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parameters.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip() and current.strip() != "void":
        parameters.append(current.strip())
    return parameters


def overload_kernel(index, name, signature):
    """A kernel that calls one overload with values and pointers it derives from g, in
    slots far enough apart that no two arguments overlap (LLVM would forward one's bytes
    to another otherwise), and stores the result."""
    match = re.match(r"^(.*?)\s*\((.*)\)$", signature)
    result, parameters = match.group(1).strip(), split_parameters(match.group(2))
    lines, arguments = [], []
    for k, parameter in enumerate(parameters):
        parameter = re.sub(r"\s*\b__private$", "", parameter).strip()
        if parameter.endswith("*"):
            base = parameter[:-1].strip()
            plain = re.sub(r"\b(const|volatile|__global|__local|__private|__constant|__generic)\b",
                           "", base).strip()
            if "__local" in base:
                lines.append(f"  __local ulong16 l{k}[2];")
                arguments.append(f"(__local {plain}*)l{k}")
            elif "__private" in base:
                lines.append(f"  ulong16 p{k}[2];")
                arguments.append(f"({plain}*)p{k}")
            elif "__constant" in base:
                arguments.append(f"(__constant {plain}*)c")
            else:
                qualifier = "volatile " if "volatile" in base else ""
                arguments.append(f"({qualifier}__global {plain}*)(g + {256 * (k + 1)})")
        else:
            plain = re.sub(r"\b(const|__private)\b", "", parameter).strip()
            lines.append(f"  {plain} a{k} = *(__global {plain}*)(g + {256 * (k + 1)});")
            arguments.append(f"a{k}")
    call = f"{name}({', '.join(arguments)})"
    lines.append(f"  {call};" if result == "void" else f"  *(__global {result}*)(g + 4096) = {call};")
    return (f"// {signature}\n__kernel void k{index}(__global char* g, __constant char* c) {{\n"
            + "\n".join(lines) + "\n}\n")


def compile_every_overload(ventus, levels):
    # The 2.0 atomics and event/sampler types are not OpenCL C 1.2; the rest of the list is.
    overloads = [(name, sig) for _, (name, sig) in sorted(declared("CL1.2", True).items())
                 if not re.search(r"\batomic_\w+|memory_order|memory_scope|event_t|sampler_t", sig)]
    kernels = [overload_kernel(i, name, sig) for i, (name, sig) in enumerate(overloads)]
    failures = []
    with tempfile.TemporaryDirectory() as work:
        def builds(source, level):
            path = os.path.join(work, "overloads.cl")
            with open(path, "w") as f:
                f.write("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" + source)
            run = subprocess.run([ventus, "cc", level, path, "-o", os.path.join(work, "k.elf")],
                                 capture_output=True, text=True)
            return run.returncode == 0, run.stderr
        for level in levels:
            chunk = 400
            for start in range(0, len(kernels), chunk):
                if builds("\n".join(kernels[start:start + chunk]), level)[0]:
                    continue
                for i in range(start, min(start + chunk, len(kernels))):  # which ones
                    ok, errors = builds(kernels[i], level)
                    if not ok:
                        first = next((l for l in errors.splitlines() if "error" in l), errors)
                        failures.append(f"{level} {overloads[i][1]} {overloads[i][0]}: {first}")
    print(f"{len(overloads)} overloads of OpenCL C 1.2, compiled at {' '.join(levels)}: "
          f"{len(failures)} failed")
    for failure in failures:
        print("  " + failure)
    return 1 if failures else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--compile":
        return compile_every_overload(sys.argv[2], sys.argv[3:] or ["-O0", "-O2"])
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
