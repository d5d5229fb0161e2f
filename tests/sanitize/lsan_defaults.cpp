// Linked into every executable of a sanitized build (DUALRATE_SANITIZE): LeakSanitizer's
// defaults, so that the generator, the tests and the fuzz harnesses need no environment.
// Suppressed, third-party only:
//   - CLN's number tables, which it allocates once at start-up and never frees;
//   - GiNaC's expression nodes: when evaluating a node throws (log(0) is a pole), GiNaC has
//     already allocated it and never frees it. The generator holds GiNaC's reference-counted,
//     immutable nodes only through GiNaC::ex, so no leak of a node can be the generator's.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\n"
         "leak:GiNaC::function::duplicate\n"
         "leak:GiNaC::numeric::duplicate\n"
         "leak:GiNaC::dynallocate\n";
}
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
