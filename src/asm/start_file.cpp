// The default start file: the guide's start.S ("Behavior During Kernel Launch") with the
// instruction sequence of the public compiler's compiled start code (see
// cases/*/object.dump), so that linked programs begin exactly like compiled ones.
// Its numbers are the device ABI's (include/ventus/abi.def), formatted in.
#include <fmt/format.h>

#include "ventus/abi.h"
#include "ventus/asm.h"

namespace ventus::assembler {
namespace {

constexpr std::string_view kStartCode = R"(# start.S: runs in every warp before the kernel.
    # byte offsets in the KNL buffer (its words are 32 bits)
    .equ KNL_ENTRY, {knl_entry}            # kernel entry pc
    .equ KNL_ARG_BASE, {knl_arg_base}         # argument buffer address
    .equ KNL_PRINT_ADDR, {knl_print_addr}      # print buffer address
    .equ KNL_PRINT_SIZE, {knl_print_size}      # print buffer size

    .text
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    # vl = 32 lanes of e32; mstatus.FS on (0x2000) for the floating point unit
    li t4, 32
    vsetvli t4, t4, e32, m1, ta, ma
    li t4, 0x2000
    csrrs t4, mstatus, t4
    li t4, 0
    # sp = local memory base + {warp_stack_bytes} bytes per warp (the stack grows upwards); tp = 0
    csrr t1, CSR_WID
    csrr t2, CSR_LDS
    li t3, {warp_stack_bytes}
    mul t1, t1, t3
    add sp, t1, t2
    li tp, 0
    # clear .bss
    la a0, _edata
    la a2, _end
    beq a0, a2, 2f
1:
    sw zero, 0(a0)
    addi a0, a0, 4
    bltu a0, a2, 1b
2:
    csrr t0, CSR_KNL
    lw t1, KNL_ENTRY(t0)
    lw a0, KNL_ARG_BASE(t0)
    lw t2, KNL_PRINT_ADDR(t0)
    lw t3, KNL_PRINT_SIZE(t0)
    la t4, BUFFER_ADDR
    la t5, BUFFER_SIZE
    sw t2, 0(t4)
    sw t3, 0(t5)
    la t6, spike_end           # trap vector: stops the Spike reference simulator
    csrw mtvec, t6
    jalr t1                    # the kernel, with a0 = its argument buffer
    endprg x0, x0, x0
    j spike_end
    .size _start, .-_start

    .globl spike_end
    .type spike_end, @function
spike_end:
    li t1, 1
    la t0, tohost
    sw t1, 0(t0)
    .size spike_end, .-spike_end

    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
tohost:
    .dword 0
    .align 6
    .globl fromhost
fromhost:
    .dword 0

    .data
    .align 2
    .globl BUFFER_ADDR
    .type BUFFER_ADDR, @object
    .size BUFFER_ADDR, 4
BUFFER_ADDR:
    .word 0
    .globl BUFFER_SIZE
    .type BUFFER_SIZE, @object
    .size BUFFER_SIZE, 4
BUFFER_SIZE:
    .word 0
)";

}  // namespace

std::string_view start_file() {
  static const std::string text =
      fmt::format(fmt::runtime(kStartCode), fmt::arg("knl_entry", 4 * abi::knl::ENTRY),
                  fmt::arg("knl_arg_base", 4 * abi::knl::ARG_BASE),
                  fmt::arg("knl_print_addr", 4 * abi::knl::PRINT_ADDR),
                  fmt::arg("knl_print_size", 4 * abi::knl::PRINT_SIZE),
                  fmt::arg("warp_stack_bytes", abi::kWarpStackBytes));
  return text;
}

}  // namespace ventus::assembler
