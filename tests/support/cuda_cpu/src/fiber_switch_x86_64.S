// meniscus_cuda_cpu_switch(void** save_sp, void* load_sp): saves the callee-saved registers,
// MXCSR and the x87 control word on the current stack, stores its pointer in *save_sp, loads
// load_sp and restores the same from there. No system call: a GPU thread's switch at a barrier
// or a warp collective costs a few nanoseconds. (System V x86-64 ABI.)
    .text
    .globl meniscus_cuda_cpu_switch
    .type meniscus_cuda_cpu_switch,@function
    .p2align 4
meniscus_cuda_cpu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size meniscus_cuda_cpu_switch, .-meniscus_cuda_cpu_switch
    .section .note.GNU-stack,"",@progbits
