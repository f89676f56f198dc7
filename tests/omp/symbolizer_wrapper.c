/* tests/omp/symbolizer_wrapper.c — TSan's symbolizer for programs that run
 * with the TSan-built drop-in preloaded. TSan starts llvm-symbolizer as a
 * child that inherits LD_PRELOAD, and the drop-in cannot load into a program
 * without the TSan runtime ("undefined symbol: __tsan_init"), so reports lose
 * their source lines. This wrapper drops LD_PRELOAD and execs the real one.
 * It is linked statically because a dynamic program (a shell script's shell
 * included) would itself fail on the preload before it could unset it.
 * Built as tests/omp/symbolizer/llvm-symbolizer: TSan picks its protocol from
 * that name. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
  (void)argc;
  unsetenv("LD_PRELOAD");
  argv[0] = (char*)SYMBOLIZER;
  execv(SYMBOLIZER, argv);
  return 127;
}
