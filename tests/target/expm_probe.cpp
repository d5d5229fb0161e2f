// dualrate/expm.hpp on a target (tests/target/expm_target.sh) and on the host: exponential<m, s>,
// checked_exponential<m, s_max> and phi_blocks<m, s> in float and double, N = 2 and 4, at plans
// that need squarings. Prints every result's bits, one matrix a line (the script compares the
// target's with the host's: the same code computes the same IEEE operations in the same order),
// and on Cortex-M the instructions of each call ("# expm_instructions NAME COUNT"; build with
// DUALRATE_CPU_HZ and DUALRATE_ICOUNT_SHIFT, run under QEMU's -icount). Exits with 1 if
// checked_exponential differs from exponential<m, s> at the s it picks, or accepts a norm its
// s_max does not cover.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <dualrate/expm.hpp>
#ifdef __arm__
#include "instruction_counter.hpp"
#endif

namespace {

namespace expm = dualrate::expm;
template <class S, int N>
using Matrix = Eigen::Matrix<S, N, N>;

// Read at run time, so that no result is folded at compile time.
volatile double scale = 1.0;
int failures = 0;

void print_bits(const char* name, const float* v, int count) {
  std::printf("%s", name);
  for (int i = 0; i < count; ++i) {
    std::uint32_t b;
    std::memcpy(&b, &v[i], sizeof b);
    std::printf(" %08" PRIx32, b);
  }
  std::printf("\n");
}
void print_bits(const char* name, const double* v, int count) {
  std::printf("%s", name);
  for (int i = 0; i < count; ++i) {
    std::uint64_t b;
    std::memcpy(&b, &v[i], sizeof b);
    std::printf(" %016" PRIx64, b);
  }
  std::printf("\n");
}

template <class F>
void count(const char* name, F&& f) {
#ifdef __arm__
  static const dualrate_cortex_m::InstructionCounter counter;
  std::uint64_t instructions = 0;
  if (counter.count(f, instructions))
    std::printf("# expm_instructions %s %llu\n", name, static_cast<unsigned long long>(instructions));
  else
    std::printf("# expm_instructions %s unmeasured\n", name);
#else
  f();
  static_cast<void>(name);
#endif
}

// A matrix of 1-norm `norm` (up to rounding) with entries of both signs and no structure.
template <class S, int N>
Matrix<S, N> test_matrix(double norm) {
  Eigen::Matrix<double, N, N> a;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) a(i, j) = scale * ((3 * i + 7 * j) % 11 - 5);
  return (a * (norm / a.cwiseAbs().colwise().sum().maxCoeff())).template cast<S>();
}

template <class S, int N, int M, int Sq>
void exponential_case(const char* name, double norm) {
  const Matrix<S, N> a = test_matrix<S, N>(norm);
  Matrix<S, N> x, checked;
  count(name, [&] { x = expm::exponential<M, Sq>(a); });
  print_bits(name, x.data(), N * N);
  if (!expm::checked_exponential<M, Sq + 2>(a, checked) || !(checked == x) ||
      expm::squarings<S>(M, static_cast<double>(a.cwiseAbs().colwise().sum().maxCoeff())) != Sq) {
    std::printf("%s: checked_exponential<%d, %d> differs from exponential<%d, %d>\n", name, M, Sq + 2, M, Sq);
    ++failures;
  }
  const Matrix<S, N> beyond = a * S(8);
  if (expm::checked_exponential<M, Sq + 2>(beyond, checked)) {
    std::printf("%s: checked_exponential<%d, %d> accepted 8 times the norm\n", name, M, Sq + 2);
    ++failures;
  }
}

template <class S, int N, int M, int Sq>
void phi_case(const char* name, double norm, S h) {
  const Matrix<S, N> z = test_matrix<S, N>(norm / static_cast<double>(h));
  Matrix<S, N> e, p1, p2;
  count(name, [&] { expm::phi_blocks<M, Sq>(z, h, e, p1, p2); });
  print_bits(name, e.data(), N * N);
  print_bits(name, p1.data(), N * N);
  print_bits(name, p2.data(), N * N);
}

}  // namespace

int main() {
  // ||A||_1 = 10: float m = 7 with 2 squarings (10 <= 4 theta_7), double m = 13 with 1.
  exponential_case<float, 2, 7, 2>("float_2x2_m7_s2", 10);
  exponential_case<float, 4, 7, 2>("float_4x4_m7_s2", 10);
  exponential_case<float, 4, 7, 0>("float_4x4_m7_s0", 3.5);
  exponential_case<float, 4, 5, 0>("float_4x4_m5_s0", 1.5);
  exponential_case<double, 2, 13, 1>("double_2x2_m13_s1", 10);
  exponential_case<double, 4, 13, 1>("double_4x4_m13_s1", 10);
  exponential_case<double, 4, 9, 0>("double_4x4_m9_s0", 2);
  // ||h z||_1 = 2 at h = 5 ms: the augmented 3N x 3N matrix has norm 2.
  phi_case<float, 2, 7, 0>("float_phi_2x2_m7_s0", 2, 0.005f);
  phi_case<float, 4, 7, 0>("float_phi_4x4_m7_s0", 2, 0.005f);
  phi_case<double, 2, 9, 0>("double_phi_2x2_m9_s0", 2, 0.005);
  phi_case<double, 4, 9, 0>("double_phi_4x4_m9_s0", 2, 0.005);
  return failures == 0 ? 0 : 1;
}
