// Linked into every executable of a sanitized build (DUALRATE_SANITIZE): LeakSanitizer's
// defaults, so that the generator, the tests and the fuzz harnesses need no environment.
// Suppressed, third-party only:
//   - CLN's number tables, which it allocates once at start-up and never frees;
//   - GiNaC's expression nodes: when evaluating a node throws (log(0) is a pole, 1/k with k = 0
//     divides by zero), GiNaC has already allocated it and never frees it. Those allocations
//     are made in libginac or in its header templates (dynallocate). The generator holds
//     GiNaC's reference-counted, immutable nodes only through GiNaC::ex and allocates nothing
//     itself with new, so no leak with such a stack can be the generator's.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\n"
         "leak:libginac.so\n"
         "leak:GiNaC::dynallocate\n";
}
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
