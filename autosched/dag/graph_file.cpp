#include <autosched/dag/graph_file.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/text.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

namespace autosched::dag {

namespace {

constexpr std::string_view task_form = "'task <id> <kernel> [i [j [k]]]'";
constexpr std::string_view edge_form = "'edge <from> <to> [bytes]'";

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// The words of a line up to a `#` that starts a word.
std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    if (i == line.size() || line[i] == '#') break;
    const std::size_t start = i;
    while (i < line.size() && !blank(line[i])) ++i;
    out.push_back(line.substr(start, i - start));
  }
  return out;
}

struct ParsedTask {
  std::uint16_t kernel = 0;
  std::array<std::int32_t, 3> tile{-1, -1, -1};
};

struct ParsedEdge {
  TaskId from = no_task, to = no_task;
  double bytes = 0;
  int line = 0;
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  TaskGraph parse() {
    if (text_.empty()) {
      line_ = 1;
      fail("the file is empty", "'" + std::string(graph_file_header) + "' on the first line");
    }
    std::size_t pos = 0;
    bool first = true;
    while (pos < text_.size()) {
      std::size_t end = text_.find('\n', pos);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(pos, end - pos);
      ++line_;
      if (first) {
        header(line);
        first = false;
      } else {
        statement(line);
      }
      pos = end + 1;
    }
    if (tasks_.empty())
      fail("no task in the file", "a 'kernels <name>...' line and then " + std::string(task_form) + " lines");
    check_acyclic();
    TaskGraph g(name_.empty() ? default_name() : name_, kernels_);
    for (const ParsedTask& t : tasks_) g.add_task(t.kernel, t.tile);
    for (const ParsedEdge& e : edges_) g.add_edge(e.from, e.to, e.bytes);
    g.finalize();
    return g;
  }

 private:
  [[noreturn]] void fail(const std::string& what, const std::string& expected) const { fail_at(line_, what, expected); }

  [[noreturn]] void fail_at(int line, const std::string& what, const std::string& expected) const {
    detail::throw_error(std::string(source_) + ":" + std::to_string(line) + ": " + what + "; expected " + expected);
  }

  static std::string quoted(std::string_view word) {
    std::string out(1, '\'');
    out += text::escape(word, 120);
    out += '\'';
    return out;
  }

  std::string default_name() const {
    const std::string stem = std::filesystem::path(std::string(source_)).stem().string();
    return stem.empty() ? std::string("graph") : stem;
  }

  void header(std::string_view line) {
    while (!line.empty() && blank(line.back())) line.remove_suffix(1);
    if (line == graph_file_header) return;
    const std::string_view prefix = graph_file_header.substr(0, graph_file_header.size() - 1);  // up to "v"
    if (line.substr(0, prefix.size()) == prefix)
      fail("format version " + quoted(line.substr(prefix.size() - 1)) + " is not supported",
           std::string("'") + std::string(graph_file_header) + "'");
    fail("the header line is missing (found " + quoted(line) + ")",
         std::string("'") + std::string(graph_file_header) + "' as the first line of a graph file");
  }

  void statement(std::string_view line) {
    const auto w = words(line);
    if (w.empty()) return;
    const std::string_view key = w.front();
    if (key == "graph") {
      graph_name(line);
    } else if (key == "kernels") {
      kernels(w);
    } else if (key == "task") {
      task(w);
    } else if (key == "edge") {
      edge(w);
    } else {
      fail("unknown keyword " + quoted(key), "graph, kernels, task or edge (or a # comment)");
    }
  }

  void graph_name(std::string_view line) {
    if (name_line_ != 0)
      fail("a second 'graph' line (the first is line " + std::to_string(name_line_) + ")", "one 'graph <name>' line");
    std::string_view rest = line.substr(line.find("graph") + 5);
    const auto hash = rest.find('#');
    if (hash != std::string_view::npos) rest = rest.substr(0, hash);
    rest = text::trim(rest);
    while (!rest.empty() && blank(rest.back())) rest.remove_suffix(1);
    if (rest.empty()) fail("'graph' without a name", "'graph <name>'");
    name_ = std::string(rest);
    name_line_ = line_;
  }

  void kernels(const std::vector<std::string_view>& w) {
    if (kernels_line_ != 0)
      fail("a second 'kernels' line (the first is line " + std::to_string(kernels_line_) + ")", "one 'kernels' line");
    if (!tasks_.empty()) fail("'kernels' after the first task", "the 'kernels' line before every 'task' line");
    if (w.size() < 2) fail("'kernels' without a name", "'kernels <name> [<name>...]'");
    if (w.size() - 1 > std::numeric_limits<std::uint16_t>::max())
      fail("more than 65535 kernel names", "at most 65535 kernels");
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (std::find(kernels_.begin(), kernels_.end(), w[i]) != kernels_.end())
        fail("kernel " + quoted(w[i]) + " is listed twice", "distinct kernel names");
      kernels_.emplace_back(w[i]);
    }
    kernels_line_ = line_;
  }

  std::int64_t integer(std::string_view word, std::string_view what, std::int64_t low, std::int64_t high,
                       std::string_view form) const {
    const auto v = text::to_int(word);
    if (!v || *v < low || *v > high)
      fail(std::string(what) + " " + quoted(word) + " is not an integer in [" + std::to_string(low) + ", " +
               std::to_string(high) + "]",
           std::string(form));
    return *v;
  }

  void task(const std::vector<std::string_view>& w) {
    if (kernels_line_ == 0) fail("a task before the 'kernels' line", "'kernels <name>...' before the first task");
    if (w.size() < 3 || w.size() > 6)
      fail("'task' with " + std::to_string(w.size() - 1) + " fields", std::string(task_form));
    const auto next = static_cast<std::int64_t>(tasks_.size());
    const auto id = text::to_int(w[1]);
    if (!id)
      fail("task id " + quoted(w[1]) + " is not an integer",
           "task id " + std::to_string(next) + " in " + std::string(task_form));
    if (*id >= 0 && *id < next)
      fail("task " + std::to_string(*id) + " is listed twice (first on line " +
               std::to_string(task_lines_[static_cast<std::size_t>(*id)]) + ")",
           "the next id, " + std::to_string(next));
    if (*id != next)
      fail("task id " + std::to_string(*id) + " is out of order",
           "the next id, " + std::to_string(next) + " (tasks are numbered 0, 1, 2, … in file order)");
    if (next >= std::numeric_limits<TaskId>::max()) fail("too many tasks", "fewer than 2^31 tasks");
    const auto k = std::find(kernels_.begin(), kernels_.end(), w[2]);
    if (k == kernels_.end()) {
      std::vector<std::string_view> names(kernels_.begin(), kernels_.end());
      fail("unknown kernel " + quoted(w[2]),
           "one of the kernels of line " + std::to_string(kernels_line_) + ": " + text::join(names, " "));
    }
    ParsedTask t;
    t.kernel = static_cast<std::uint16_t>(k - kernels_.begin());
    for (std::size_t i = 3; i < w.size(); ++i)
      t.tile[i - 3] = static_cast<std::int32_t>(
          integer(w[i], "tile index", -1, std::numeric_limits<std::int32_t>::max(), task_form));
    tasks_.push_back(t);
    task_lines_.push_back(line_);
  }

  void edge(const std::vector<std::string_view>& w) {
    if (w.size() < 3 || w.size() > 4)
      fail("'edge' with " + std::to_string(w.size() - 1) + " fields", std::string(edge_form));
    const auto listed = static_cast<std::int64_t>(tasks_.size());
    TaskId ends[2];
    for (int i = 0; i < 2; ++i) {
      const auto v = text::to_int(w[static_cast<std::size_t>(i) + 1]);
      if (!v)
        fail("task id " + quoted(w[static_cast<std::size_t>(i) + 1]) + " is not an integer", std::string(edge_form));
      if (*v < 0 || *v >= listed)
        fail("edge to a missing task " + std::to_string(*v),
             listed == 0 ? std::string("edges after the tasks they name (no task listed yet)")
                         : "a task listed above this line, 0.." + std::to_string(listed - 1));
      ends[i] = static_cast<TaskId>(*v);
    }
    if (ends[0] == ends[1]) fail("task " + std::to_string(ends[0]) + " depends on itself", "two different tasks");
    double bytes = 0;
    if (w.size() == 4) {
      const auto b = text::to_double(w[3]);
      if (!b || *b < 0) fail("bytes " + quoted(w[3]) + " is not a number >= 0", std::string(edge_form));
      bytes = *b;
    }
    const auto [at, fresh] = edge_lines_.emplace(std::pair{ends[0], ends[1]}, line_);
    if (!fresh)
      fail("edge " + std::to_string(ends[0]) + " -> " + std::to_string(ends[1]) + " is given twice (first on line " +
               std::to_string(at->second) + ")",
           "each edge once");
    edges_.push_back({ends[0], ends[1], bytes, line_});
  }

  /// Kahn's algorithm; on a cycle, names one and the line of its last edge.
  void check_acyclic() const {
    const std::size_t n = tasks_.size();
    std::vector<std::vector<std::size_t>> out(n), in(n);  // edge indices
    std::vector<std::size_t> waiting(n, 0);
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      out[static_cast<std::size_t>(edges_[e].from)].push_back(e);
      in[static_cast<std::size_t>(edges_[e].to)].push_back(e);
      ++waiting[static_cast<std::size_t>(edges_[e].to)];
    }
    std::vector<std::size_t> stack;
    for (std::size_t t = 0; t < n; ++t) {
      if (waiting[t] == 0) stack.push_back(t);
    }
    std::size_t seen = 0;
    while (!stack.empty()) {
      const std::size_t t = stack.back();
      stack.pop_back();
      ++seen;
      for (std::size_t e : out[t]) {
        if (--waiting[static_cast<std::size_t>(edges_[e].to)] == 0)
          stack.push_back(static_cast<std::size_t>(edges_[e].to));
      }
    }
    if (seen == n) return;
    // Every task left has a predecessor left: walking predecessors from one
    // of them must come back to a task already on the walk.
    std::size_t t = 0;
    while (waiting[t] == 0) ++t;
    std::vector<std::size_t> walk, via;  // tasks, and the edge that led into each
    std::vector<std::size_t> position(n, n);
    while (position[t] == n) {
      position[t] = walk.size();
      walk.push_back(t);
      for (std::size_t e : in[t]) {
        if (waiting[static_cast<std::size_t>(edges_[e].from)] != 0) {
          via.push_back(e);
          t = static_cast<std::size_t>(edges_[e].from);
          break;
        }
      }
    }
    // The cycle, in edge direction: walk[position[t]] <- ... <- walk.back() <- t.
    std::vector<std::size_t> cycle_edges(via.begin() + static_cast<std::ptrdiff_t>(position[t]), via.end());
    std::string path = std::to_string(t);
    for (auto it = cycle_edges.rbegin(); it != cycle_edges.rend(); ++it)
      path += " -> " + std::to_string(edges_[*it].to);
    const std::size_t last =
        *std::max_element(cycle_edges.begin(), cycle_edges.end(),
                          [&](std::size_t a, std::size_t b) { return edges_[a].line < edges_[b].line; });
    fail_at(edges_[last].line,
            "edge " + std::to_string(edges_[last].from) + " -> " + std::to_string(edges_[last].to) +
                " closes the cycle " + path,
            "edges that form a directed acyclic graph");
  }

  std::string_view text_, source_;
  int line_ = 0;
  std::string name_;
  int name_line_ = 0, kernels_line_ = 0;
  std::vector<std::string> kernels_;
  std::vector<ParsedTask> tasks_;
  std::vector<int> task_lines_;
  std::vector<ParsedEdge> edges_;
  std::map<std::pair<TaskId, TaskId>, int> edge_lines_;
};

bool writable_word(std::string_view s) {
  return !s.empty() && std::none_of(s.begin(), s.end(), [](char c) { return blank(c) || c == '\n' || c == '#'; });
}

std::string shortest(double v) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc{} ? std::string(buffer, end) : std::string("nan");
}

}  // namespace

TaskGraph parse_graph(std::string_view text, std::string_view source) { return Parser(text, source).parse(); }

TaskGraph load_graph(const std::string& path) {
  // Through the one check for user-named files: regular files only, and a
  // bound (a 3 GiB file was read whole before a word of it was parsed).
  std::string why;
  const auto content = files::read_regular(path, max_graph_file_bytes, &why);
  if (!content) detail::throw_error("graph file '" + text::escape(path) + "': " + why);
  return parse_graph(*content, path);
}

std::string graph_text(const TaskGraph& g) {
  const std::string& name = g.name();
  if (name.empty() || text::trim(name) != name || name.find_first_of("#\n\r") != std::string::npos)
    detail::throw_error("graph name '" + text::escape(name) +
                        "' cannot be written to a graph file; expected a non-empty name without '#', line breaks "
                        "or blanks at its ends");
  std::string out;
  out.reserve(64 + g.size() * 24 + g.edge_count() * 20);
  out += graph_file_header;
  out += "\ngraph " + name + "\nkernels";
  for (const std::string& k : g.kernel_names()) {
    if (!writable_word(k))
      detail::throw_error("graph '" + name + "': kernel name '" + text::escape(k) +
                          "' cannot be written to a graph file; expected one word without '#'");
    out += ' ' + k;
  }
  out += '\n';
  for (std::size_t t = 0; t < g.size(); ++t) {
    const Task& task = g.task(static_cast<TaskId>(t));
    out += "task " + std::to_string(t) + ' ' + g.kernel_names()[task.kernel];
    std::size_t used = task.tile.size();
    while (used > 0 && task.tile[used - 1] == -1) --used;
    for (std::size_t i = 0; i < used; ++i) out += ' ' + std::to_string(task.tile[i]);
    out += '\n';
  }
  for (const Edge& e : g.edges()) {
    out += "edge " + std::to_string(e.from) + ' ' + std::to_string(e.to) + ' ' + shortest(e.bytes) + '\n';
  }
  return out;
}

void save_graph(const TaskGraph& g, const std::string& path) {
  const std::string content = graph_text(g);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) detail::throw_error("graph file '" + text::escape(path) + "': cannot create it");
  out << content;
  out.flush();
  if (!out) detail::throw_error("graph file '" + text::escape(path) + "': cannot write it");
}

}  // namespace autosched::dag
