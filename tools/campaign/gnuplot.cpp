#include "gnuplot.hpp"

#include <cstdlib>

namespace autosched::campaign {

bool have_gnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

bool run_gnuplot(const std::string& dir, const std::string& script) {
  const std::string command =
      "cd " + shell_quoted(dir.empty() ? "." : dir) + " && gnuplot " + shell_quoted(script) + " >/dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

std::string shell_quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace autosched::campaign
