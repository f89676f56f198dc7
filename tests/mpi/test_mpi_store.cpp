// What the coordinator learned survives the run: the first run of a loop
// under `auto` profiles it at its second instance (a cold start; the first
// runs static); with the same store, the second run starts on the stored
// best arm and profiles nothing. Run twice by mpi_store.cmake:
//   mpiexec -n 2 test_mpi_store cold   then   mpiexec -n 2 test_mpi_store warm
#include <autosched/mpi/mpi.hpp>

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string_view expect = argc > 1 ? argv[1] : "cold";
  std::string second;
  for (int step = 0; step < 40; ++step) {
    const auto r = autosched::mpi::parallel_for(
        MPI_COMM_WORLD, 0, 40000,
        [](std::int64_t i) {
          volatile double x = 0;
          for (std::int64_t k = 0; k < i / 2000; ++k) x = x + 1.0;
        },
        {.name = "store-check", .schedule = "auto"});
    if (step == 1) second = r.technique;
  }
  const bool ok = expect == "cold" ? second == "profiling" : second != "profiling";
  if (rank == 0) {
    std::printf("test_mpi_store %s: second instance ran %s: %s\n", std::string(expect).c_str(), second.c_str(),
                ok ? "ok" : "FAILED");
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
