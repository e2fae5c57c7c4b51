# Helpers shared by the test programs.
    .text
# v1 = get_global_id(0) for a 1-D launch: group_id_x * local_size_x + local id + offset_x.
    .globl global_id_x
global_id_x:
    csrr t0, CSR_KNL
    lw t1, 24(t0)           # local size x
    lw t3, 36(t0)           # global offset x
    csrr t2, CSR_GIDX
    mul t1, t1, t2
    add t1, t1, t3
    csrr t2, CSR_TID
    add t1, t1, t2
    vid.v v1
    vadd.vx v1, v1, t1
    ret
