// Links the installed autosched::dag_starpu and lists StarPU's own policies
// the runner accepts (no StarPU worker is started).
#include <autosched/dag/starpu/starpu_runner.hpp>

#include <cstdio>

int main() {
  const auto names = autosched::dag::starpu::starpu_policy_names();
  for (const auto& n : names) std::printf("%s\n", n.c_str());
  return names.empty() ? 1 : 0;
}
