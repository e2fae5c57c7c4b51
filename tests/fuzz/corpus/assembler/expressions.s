.equ a, 3
.equ b, (a << 2) | 1
.set c, -(b * 5) / 2 % 7 ^ ~1
.word a + b - c, 'x', '\n', 0x7fffffff, -1 & 0xff
.half 0b1010, 017
.byte !0, 1f - 0f
0: .dword 1 << 40
1: .space 3, 0xff
.balign 8
