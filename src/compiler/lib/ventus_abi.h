// The device ABI (include/ventus/abi.def) for the builtin library: VT_CSR_<ID> CSR numbers,
// VT_KNL_<ID> word indices of the kernel metadata buffer, VT_<NAME> values.
#pragma once

enum {
#define VT_CSR(id, number, name, long_name, short_name, access, holds) VT_CSR_##id = number,
#include "ventus/abi.def"
};

enum {
#define VT_KNL_WORD(id, word, count, holds) VT_KNL_##id = word,
#include "ventus/abi.def"
};

enum {
#define VT_ABI_VALUE(cxx_name, asm_name, value, what) VT_##asm_name = value,
#include "ventus/abi.def"
};
