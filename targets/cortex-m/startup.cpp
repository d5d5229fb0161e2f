// Bare-metal startup for Cortex-M3/M4F/M7 boards under QEMU, on picolibc (linked with
// -nostartfiles and a board's memory.ld, which includes picolibc.ld for the section layout):
//  - vector table at the start of flash (initial stack pointer, reset, fault handlers, and
//    PendSV_Handler, SysTick_Handler and the first eight external interrupts'
//    dualrate_task_irq0..7, weak: a program defines them to use them);
//  - reset: enables the FPU when the build has one, copies .data and .tdata from flash,
//    zeroes .bss and .tbss, points picolibc's thread-local storage (errno) at its block,
//    runs the static constructors (init_array), then exit(main(argc, argv)) with argv taken
//    from the semihosting command line (QEMU's -append);
//  - fault handlers print the fault status registers over semihosting and exit with
//    status 70 + the exception number (HardFault 73, MemManage 74, BusFault 75, UsageFault 76);
//  - no heap: malloc, calloc, realloc, free and every operator new/delete are defined here
//    to reference a symbol that exists nowhere, so a program that uses one of them fails to
//    link with "undefined reference to `dualrate_heap_use_is_forbidden_on_target'". Each sits
//    in its own section, which --gc-sections drops when nothing calls it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "vectors.hpp"

extern "C" {
#include <semihost.h>
}

extern "C" {
extern char __data_start[], __data_source[], __data_size[];
extern char __bss_start[], __bss_size[];
extern char __tls_base[];
extern char __stack[];
extern void (*__preinit_array_start[])();
extern void (*__preinit_array_end[])();
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
// The program's main, under a name C++ lets startup code call.
int application_main(int argc, char** argv) __asm__("main");
void _set_tls(void* tls);    // picolibc: thread-local storage block (errno lives there)
[[noreturn]] void _start();  // reset handler (picolibc.ld's entry point)
void dualrate_fault_handler();
[[noreturn]] void dualrate_fault_report(const std::uint32_t* frame);
[[noreturn]] void dualrate_default_handler();
void* dualrate_heap_use_is_forbidden_on_target();
}

namespace {

volatile std::uint32_t& reg(std::uintptr_t address) { return *reinterpret_cast<volatile std::uint32_t*>(address); }

constexpr std::uintptr_t kCpacr = 0xE000ED88;
constexpr std::uintptr_t kShcsr = 0xE000ED24;
constexpr std::uintptr_t kIcsr = 0xE000ED04;
constexpr std::uintptr_t kCfsr = 0xE000ED28;
constexpr std::uintptr_t kHfsr = 0xE000ED2C;
constexpr std::uintptr_t kMmfar = 0xE000ED34;
constexpr std::uintptr_t kBfar = 0xE000ED38;

constexpr int kArgsMax = 16;
char command_line[256];
char* args[kArgsMax + 1];

// Splits the semihosting command line ("program arg1 arg2 ...") at spaces.
int read_arguments() {
  if (sys_semihost_get_cmdline(command_line, sizeof command_line) != 0) return 0;
  int argc = 0;
  for (char* p = command_line; *p != '\0' && argc < kArgsMax;) {
    while (*p == ' ') *p++ = '\0';
    if (*p == '\0') break;
    args[argc++] = p;
    while (*p != '\0' && *p != ' ') ++p;
  }
  return argc;
}

}  // namespace

extern "C" [[noreturn]] void _start() {
#if defined(__ARM_FP)
  reg(kCpacr) |= 0xFu << 20;  // CP10 and CP11: full access
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  reg(kShcsr) |= (1u << 16) | (1u << 17) | (1u << 18);  // MemManage, BusFault, UsageFault enabled
  std::memcpy(__data_start, __data_source, reinterpret_cast<std::size_t>(__data_size));
  std::memset(__bss_start, 0, reinterpret_cast<std::size_t>(__bss_size));
  _set_tls(__tls_base);
  for (auto f = __preinit_array_start; f != __preinit_array_end; ++f) (*f)();
  for (auto f = __init_array_start; f != __init_array_end; ++f) (*f)();
  const int argc = read_arguments();
  std::exit(application_main(argc, args));
}

// Entered with the exception frame (r0-r3, r12, lr, pc, xpsr) on the stack the fault
// interrupted; passes its address on before any prologue can move the stack pointer.
extern "C" __attribute__((naked)) void dualrate_fault_handler() {
  __asm__ volatile(
      "tst lr, #4\n\t"
      "ite eq\n\t"
      "mrseq r0, msp\n\t"
      "mrsne r0, psp\n\t"
      "b dualrate_fault_report");
}

extern "C" [[noreturn]] void dualrate_fault_report(const std::uint32_t* frame) {
  const unsigned exception = reg(kIcsr) & 0x1FFu;
  std::fprintf(stderr,
               "fault: exception %u, CFSR 0x%08lx, HFSR 0x%08lx, MMFAR 0x%08lx, BFAR 0x%08lx, PC 0x%08lx, LR 0x%08lx\n",
               exception, static_cast<unsigned long>(reg(kCfsr)), static_cast<unsigned long>(reg(kHfsr)),
               static_cast<unsigned long>(reg(kMmfar)), static_cast<unsigned long>(reg(kBfar)),
               static_cast<unsigned long>(frame[6]), static_cast<unsigned long>(frame[5]));
  sys_semihost_exit_extended(70 + exception);
}

extern "C" [[noreturn]] void dualrate_default_handler() {
  std::fprintf(stderr, "unexpected exception %u\n", static_cast<unsigned>(reg(kIcsr) & 0x1FFu));
  sys_semihost_exit_extended(69);
}

// A program that uses these interrupts (vectors.hpp) defines them; otherwise they are
// unexpected. The first eight external interrupts carry no device on the programs' use of
// the boards (UARTs are off).
extern "C" __attribute__((weak)) void PendSV_Handler() { dualrate_default_handler(); }
extern "C" __attribute__((weak)) void SysTick_Handler() { dualrate_default_handler(); }
#define DUALRATE_WEAK_TASK_IRQ(n) \
  extern "C" __attribute__((weak)) void dualrate_task_irq##n() { dualrate_default_handler(); }
DUALRATE_WEAK_TASK_IRQ(0)
DUALRATE_WEAK_TASK_IRQ(1)
DUALRATE_WEAK_TASK_IRQ(2)
DUALRATE_WEAK_TASK_IRQ(3)
DUALRATE_WEAK_TASK_IRQ(4)
DUALRATE_WEAK_TASK_IRQ(5)
DUALRATE_WEAK_TASK_IRQ(6)
DUALRATE_WEAK_TASK_IRQ(7)

// Vector table: picolibc.ld places .text.init.enter first in flash, where the core fetches
// the initial stack pointer and the reset vector.
using Vector = void (*)();
__attribute__((section(".text.init.enter"), used)) const Vector dualrate_vectors[16 + 8] = {
    reinterpret_cast<Vector>(__stack),
    _start,
    dualrate_default_handler,  // NMI
    dualrate_fault_handler,    // HardFault
    dualrate_fault_handler,    // MemManage
    dualrate_fault_handler,    // BusFault
    dualrate_fault_handler,    // UsageFault
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    dualrate_default_handler,  // SVCall
    dualrate_default_handler,  // DebugMonitor
    nullptr,
    PendSV_Handler,
    SysTick_Handler,
    dualrate_task_irq0,
    dualrate_task_irq1,
    dualrate_task_irq2,
    dualrate_task_irq3,
    dualrate_task_irq4,
    dualrate_task_irq5,
    dualrate_task_irq6,
    dualrate_task_irq7,
};

#define DUALRATE_FORBIDDEN(signature) \
  signature { return dualrate_heap_use_is_forbidden_on_target(); }
#define DUALRATE_FORBIDDEN_VOID(signature) \
  signature { dualrate_heap_use_is_forbidden_on_target(); }

extern "C" {
DUALRATE_FORBIDDEN(void* malloc(std::size_t))
DUALRATE_FORBIDDEN(void* calloc(std::size_t, std::size_t))
DUALRATE_FORBIDDEN(void* realloc(void*, std::size_t))
DUALRATE_FORBIDDEN(void* aligned_alloc(std::size_t, std::size_t))
DUALRATE_FORBIDDEN_VOID(void free(void*))
}
DUALRATE_FORBIDDEN(void* operator new(std::size_t))
DUALRATE_FORBIDDEN(void* operator new[](std::size_t))
DUALRATE_FORBIDDEN(void* operator new(std::size_t, const std::nothrow_t&) noexcept)
DUALRATE_FORBIDDEN(void* operator new[](std::size_t, const std::nothrow_t&) noexcept)
DUALRATE_FORBIDDEN(void* operator new(std::size_t, std::align_val_t))
DUALRATE_FORBIDDEN(void* operator new[](std::size_t, std::align_val_t))
DUALRATE_FORBIDDEN_VOID(void operator delete(void*) noexcept)
DUALRATE_FORBIDDEN_VOID(void operator delete[](void*) noexcept)
DUALRATE_FORBIDDEN_VOID(void operator delete(void*, std::size_t) noexcept)
DUALRATE_FORBIDDEN_VOID(void operator delete[](void*, std::size_t) noexcept)
DUALRATE_FORBIDDEN_VOID(void operator delete(void*, std::align_val_t) noexcept)
DUALRATE_FORBIDDEN_VOID(void operator delete[](void*, std::align_val_t) noexcept)
