// OpenCL C relational functions (s6.15.6). The comparisons are OpenCL C's own operators,
// which already give what the builtins return: 1/0 (int) for scalars, -1/0 (intn) for
// vectors. N is the vector width, empty for scalars.
#include "core/base.h"

#define VT_REL_FLOAT(N)                                         \
  VT_OVL int##N VT_CL(isequal)(float##N x, float##N y) {        \
    return x == y;                                              \
  }                                                             \
  VT_OVL int##N VT_CL(isnotequal)(float##N x, float##N y) {     \
    return x != y;                                              \
  }                                                             \
  VT_OVL int##N VT_CL(isgreater)(float##N x, float##N y) {      \
    return x > y;                                               \
  }                                                             \
  VT_OVL int##N VT_CL(isgreaterequal)(float##N x, float##N y) { \
    return x >= y;                                              \
  }                                                             \
  VT_OVL int##N VT_CL(isless)(float##N x, float##N y) {         \
    return x < y;                                               \
  }                                                             \
  VT_OVL int##N VT_CL(islessequal)(float##N x, float##N y) {    \
    return x <= y;                                              \
  }                                                             \
  VT_OVL int##N VT_CL(islessgreater)(float##N x, float##N y) {  \
    return (x < y) || (x > y);                                  \
  }                                                             \
  VT_OVL int##N VT_CL(isordered)(float##N x, float##N y) {      \
    return (x == x) && (y == y);                                \
  }                                                             \
  VT_OVL int##N VT_CL(isunordered)(float##N x, float##N y) {    \
    return (x != x) || (y != y);                                \
  }                                                             \
  VT_OVL int##N VT_CL(isnan)(float##N x) {                      \
    return x != x;                                              \
  }                                                             \
  VT_OVL int##N VT_CL(isinf)(float##N x) {                      \
    return (as_int##N(x) & 0x7fffffff) == 0x7f800000;           \
  }                                                             \
  VT_OVL int##N VT_CL(isfinite)(float##N x) {                   \
    return (as_int##N(x) & 0x7fffffff) < 0x7f800000;            \
  }                                                             \
  VT_OVL int##N VT_CL(isnormal)(float##N x) {                   \
    int##N a = as_int##N(x) & 0x7fffffff;                       \
    return (a >= 0x00800000) && (a < 0x7f800000);               \
  }                                                             \
  VT_OVL int##N VT_CL(signbit)(float##N x) {                    \
    return as_int##N(x) < 0;                                    \
  }

VT_REL_FLOAT()
VT_REL_FLOAT(2)
VT_REL_FLOAT(3)
VT_REL_FLOAT(4)
VT_REL_FLOAT(8)
VT_REL_FLOAT(16)

// double: scalars give int, vectors long##N (OpenCL C's operators do the same).
#define VT_REL_DOUBLE(RT, N)                                                              \
  VT_OVL RT VT_CL(isequal)(double##N x, double##N y) { return x == y; }                   \
  VT_OVL RT VT_CL(isnotequal)(double##N x, double##N y) { return x != y; }                \
  VT_OVL RT VT_CL(isgreater)(double##N x, double##N y) { return x > y; }                  \
  VT_OVL RT VT_CL(isgreaterequal)(double##N x, double##N y) { return x >= y; }            \
  VT_OVL RT VT_CL(isless)(double##N x, double##N y) { return x < y; }                     \
  VT_OVL RT VT_CL(islessequal)(double##N x, double##N y) { return x <= y; }               \
  VT_OVL RT VT_CL(islessgreater)(double##N x, double##N y) { return (x < y) || (x > y); } \
  VT_OVL RT VT_CL(isordered)(double##N x, double##N y) { return (x == x) && (y == y); }   \
  VT_OVL RT VT_CL(isunordered)(double##N x, double##N y) { return (x != x) || (y != y); } \
  VT_OVL RT VT_CL(isnan)(double##N x) { return x != x; }                                  \
  VT_OVL RT VT_CL(isinf)(double##N x) {                                                   \
    return (as_long##N(x) & 0x7fffffffffffffffl) == 0x7ff0000000000000l;                  \
  }                                                                                       \
  VT_OVL RT VT_CL(isfinite)(double##N x) {                                                \
    return (as_long##N(x) & 0x7fffffffffffffffl) < 0x7ff0000000000000l;                   \
  }                                                                                       \
  VT_OVL RT VT_CL(isnormal)(double##N x) {                                                \
    long##N a = as_long##N(x) & 0x7fffffffffffffffl;                                      \
    return (a >= 0x0010000000000000l) && (a < 0x7ff0000000000000l);                       \
  }                                                                                       \
  VT_OVL RT VT_CL(signbit)(double##N x) { return as_long##N(x) < 0; }

VT_REL_DOUBLE(int, )
VT_REL_DOUBLE(long2, 2)
VT_REL_DOUBLE(long3, 3)
VT_REL_DOUBLE(long4, 4)
VT_REL_DOUBLE(long8, 8)
VT_REL_DOUBLE(long16, 16)

// any/all: the most significant bit of any/every element. OR (AND) of the halves keeps
// it, so every width reduces to the scalar test.
#define VT_ANY_ALL(T)                           \
  VT_OVL int VT_CL(any)(T x) {                  \
    return x < (T)0;                            \
  }                                             \
  VT_OVL int VT_CL(all)(T x) {                  \
    return x < (T)0;                            \
  }                                             \
  VT_OVL int VT_CL(any)(T##2 x) {               \
    return VT_CL(any)((T)(x.s0 | x.s1));        \
  }                                             \
  VT_OVL int VT_CL(all)(T##2 x) {               \
    return VT_CL(all)((T)(x.s0 & x.s1));        \
  }                                             \
  VT_OVL int VT_CL(any)(T##3 x) {               \
    return VT_CL(any)((T)(x.s0 | x.s1 | x.s2)); \
  }                                             \
  VT_OVL int VT_CL(all)(T##3 x) {               \
    return VT_CL(all)((T)(x.s0 & x.s1 & x.s2)); \
  }                                             \
  VT_OVL int VT_CL(any)(T##4 x) {               \
    return VT_CL(any)(x.lo | x.hi);             \
  }                                             \
  VT_OVL int VT_CL(all)(T##4 x) {               \
    return VT_CL(all)(x.lo & x.hi);             \
  }                                             \
  VT_OVL int VT_CL(any)(T##8 x) {               \
    return VT_CL(any)(x.lo | x.hi);             \
  }                                             \
  VT_OVL int VT_CL(all)(T##8 x) {               \
    return VT_CL(all)(x.lo & x.hi);             \
  }                                             \
  VT_OVL int VT_CL(any)(T##16 x) {              \
    return VT_CL(any)(x.lo | x.hi);             \
  }                                             \
  VT_OVL int VT_CL(all)(T##16 x) {              \
    return VT_CL(all)(x.lo & x.hi);             \
  }
VT_ANY_ALL(char)
VT_ANY_ALL(short)
VT_ANY_ALL(int)
VT_ANY_ALL(long)

// bitselect(a, b, c): each bit from b where c's bit is set, else from a. select(a, b, c):
// scalars: c ? b : a; vectors: each element from b where c's element has its most
// significant bit set. IT/UT: the integer types with T's element size, used as bits.
#define VT_SELECT_N(T, IT, UT, BITS, N)                                                    \
  VT_OVL T##N VT_CL(bitselect)(T##N a, T##N b, T##N c) {                                   \
    UT##N ua = as_##UT##N(a), ub = as_##UT##N(b), uc = as_##UT##N(c);                      \
    return as_##T##N((ua & ~uc) | (ub & uc));                                              \
  }                                                                                        \
  VT_OVL T##N VT_CL(select)(T##N a, T##N b, IT##N c) {                                     \
    UT##N m = as_##UT##N(c >> (BITS - 1)); /* arithmetic: all ones where the MSB is set */ \
    return as_##T##N((as_##UT##N(a) & ~m) | (as_##UT##N(b) & m));                          \
  }                                                                                        \
  VT_OVL T##N VT_CL(select)(T##N a, T##N b, UT##N c) {                                     \
    return VT_CL(select)(a, b, as_##IT##N(c));                                             \
  }
#define VT_SELECT(T, IT, UT, BITS)                        \
  VT_OVL T VT_CL(bitselect)(T a, T b, T c) {              \
    UT ua = as_##UT(a), ub = as_##UT(b), uc = as_##UT(c); \
    return as_##T((UT)((ua & ~uc) | (ub & uc)));          \
  }                                                       \
  VT_OVL T VT_CL(select)(T a, T b, IT c) {                \
    return c ? b : a;                                     \
  }                                                       \
  VT_OVL T VT_CL(select)(T a, T b, UT c) {                \
    return c ? b : a;                                     \
  }                                                       \
  VT_SELECT_N(T, IT, UT, BITS, 2)                         \
  VT_SELECT_N(T, IT, UT, BITS, 3)                         \
  VT_SELECT_N(T, IT, UT, BITS, 4)                         \
  VT_SELECT_N(T, IT, UT, BITS, 8)                         \
  VT_SELECT_N(T, IT, UT, BITS, 16)
VT_SELECT(char, char, uchar, 8)
VT_SELECT(uchar, char, uchar, 8)
VT_SELECT(short, short, ushort, 16)
VT_SELECT(ushort, short, ushort, 16)
VT_SELECT(int, int, uint, 32)
VT_SELECT(uint, int, uint, 32)
VT_SELECT(long, long, ulong, 64)
VT_SELECT(ulong, long, ulong, 64)
VT_SELECT(float, int, uint, 32)
VT_SELECT(double, long, ulong, 64)
