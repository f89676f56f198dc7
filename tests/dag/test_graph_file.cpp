// Graph files: exact round trips of the generated graphs, and every
// malformed input named by file, line and what was expected.
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/graph_file.hpp>

#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

namespace dag = autosched::dag;

namespace {

void expect_same(const dag::TaskGraph& a, const dag::TaskGraph& b) {
  ASSERT_EQ(a.name(), b.name());
  ASSERT_EQ(std::vector<std::string>(a.kernel_names().begin(), a.kernel_names().end()),
            std::vector<std::string>(b.kernel_names().begin(), b.kernel_names().end()));
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); ++t) {
    EXPECT_EQ(a.task(static_cast<dag::TaskId>(t)).kernel, b.task(static_cast<dag::TaskId>(t)).kernel) << t;
    EXPECT_EQ(a.task(static_cast<dag::TaskId>(t)).tile, b.task(static_cast<dag::TaskId>(t)).tile) << t;
  }
  ASSERT_EQ(a.edge_count(), b.edge_count());
  for (std::size_t e = 0; e < a.edge_count(); ++e) {
    EXPECT_EQ(a.edges()[e].from, b.edges()[e].from);
    EXPECT_EQ(a.edges()[e].to, b.edges()[e].to);
    EXPECT_EQ(a.edges()[e].bytes, b.edges()[e].bytes);  // bit for bit
  }
  EXPECT_EQ(std::vector<dag::TaskId>(a.topological_order().begin(), a.topological_order().end()),
            std::vector<dag::TaskId>(b.topological_order().begin(), b.topological_order().end()));
}

/// The message parse_graph() throws for `text`, or "" when it accepts it.
std::string error_of(const std::string& text) {
  try {
    dag::parse_graph(text, "g.txt");
  } catch (const autosched::Error& e) {
    return e.what();
  }
  return "";
}

const std::string header = "# autosched task graph v1\n";

}  // namespace

TEST(GraphFile, FactorizationsRoundTripExactlyThroughAFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("autosched-graph-file-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const char* family : {"cholesky", "lu", "qr"}) {
    for (int tiles : {2, 5, 8}) {
      for (auto flavour : {dag::GraphFlavour::correct, dag::GraphFlavour::readys}) {
        const dag::TaskGraph g = dag::factorization(family, tiles, flavour);
        const std::string path = (dir / (std::string(family) + std::to_string(tiles) + ".txt")).string();
        dag::save_graph(g, path);
        const dag::TaskGraph back = dag::load_graph(path);
        SCOPED_TRACE(g.name());
        expect_same(g, back);
        EXPECT_EQ(dag::graph_text(back), dag::graph_text(g));
      }
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(GraphFile, BytesAndTilesRoundTripToTheLastBit) {
  dag::TaskGraph g("bytes test", {"A", "B"});
  g.add_task(0);
  g.add_task(1, {3, -1, 7});
  g.add_task(0, {0, 1, 2});
  g.add_edge(0, 1, 8388608);
  g.add_edge(0, 2, 0.1 + 0.2);
  g.add_edge(2, 1, 1e300);
  g.finalize();
  const dag::TaskGraph back = dag::parse_graph(dag::graph_text(g));
  expect_same(g, back);
}

TEST(GraphFile, ReadsTheDocumentedExample) {
  const dag::TaskGraph g = dag::parse_graph(header +
                                            "graph my dag   # a comment\n"
                                            "\n"
                                            "kernels POTRF SYRK TRSM GEMM\n"
                                            "  # an indented comment\n"
                                            "task 0 POTRF 0\r\n"
                                            "task 1 TRSM 1 0\n"
                                            "edge 0 1 8388608\n"
                                            "task 2 GEMM\n"
                                            "edge 2 0\n");
  EXPECT_EQ(g.name(), "my dag");
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g.kernel_name(1), "TRSM");
  EXPECT_EQ(g.task(1).tile, (std::array<std::int32_t, 3>{1, 0, -1}));
  ASSERT_EQ(g.edge_count(), 2u);
  EXPECT_EQ(g.predecessor_bytes(1)[0], 8388608);
  EXPECT_FALSE(g.ids_are_topological());
  EXPECT_EQ(g.topological_order()[0], 2);
}

TEST(GraphFile, WithoutAGraphLineTheNameIsTheFileStem) {
  EXPECT_EQ(dag::parse_graph(header + "kernels K\ntask 0 K\n", "dir/mine.dag").name(), "mine");
}

TEST(GraphFile, EachMalformedInputNamesTheLineAndWhatWasExpected) {
  struct Case {
    std::string text, message;
  };
  const Case cases[] = {
      {"", "g.txt:1: the file is empty; expected '# autosched task graph v1'"},
      {"kernels A\ntask 0 A\n", "g.txt:1: the header line is missing \\(found 'kernels A'\\); expected '# autosched"},
      {"# autosched task graph v2\n", "g.txt:1: format version 'v2' is not supported"},
      {header + "kernels A\nfrobnicate 1\n",
       "g.txt:3: unknown keyword 'frobnicate'; expected graph, kernels, task or edge"},
      {header + "task 0 A\n", "g.txt:2: a task before the 'kernels' line"},
      {header + "kernels A B A\n", "g.txt:2: kernel 'A' is listed twice"},
      {header + "kernels A\nkernels B\n", "g.txt:3: a second 'kernels' line \\(the first is line 2\\)"},
      {header + "graph a\ngraph b\n", "g.txt:3: a second 'graph' line"},
      {header + "graph\n", "g.txt:2: 'graph' without a name"},
      {header + "kernels\n", "g.txt:2: 'kernels' without a name"},
      {header + "kernels A\ntask 0 B\n", "g.txt:3: unknown kernel 'B'; expected one of the kernels of line 2: A"},
      {header + "kernels A\ntask 1 A\n", "g.txt:3: task id 1 is out of order; expected the next id, 0"},
      {header + "kernels A\ntask 0 A\n\ntask 0 A\n",
       "g.txt:5: task 0 is listed twice \\(first on line 3\\); expected the next id, 1"},
      {header + "kernels A\ntask x A\n", "g.txt:3: task id 'x' is not an integer"},
      {header + "kernels A\ntask 0\n",
       "g.txt:3: 'task' with 1 fields; expected 'task <id> <kernel> \\[i \\[j \\[k\\]\\]\\]'"},
      {header + "kernels A\ntask 0 A 1 2 3 4\n", "g.txt:3: 'task' with 6 fields"},
      {header + "kernels A\ntask 0 A -2\n", "g.txt:3: tile index '-2' is not an integer in \\[-1, "},
      {header + "kernels A\ntask 0 A\ntask 1 A\nedge 0 2\n",
       "g.txt:5: edge to a missing task 2; expected a task listed above this line, 0..1"},
      {header + "kernels A\ntask 0 A\nedge -1 0\n", "g.txt:4: edge to a missing task -1"},
      {header + "kernels A\ntask 0 A\ntask 1 A\nedge 0 1 12x\n",
       "g.txt:5: bytes '12x' is not a number >= 0; expected 'edge <from> <to> \\[bytes\\]'"},
      {header + "kernels A\ntask 0 A\ntask 1 A\nedge 0 1 -5\n", "g.txt:5: bytes '-5' is not a number >= 0"},
      {header + "kernels A\ntask 0 A\ntask 1 A\nedge 0 one\n", "g.txt:5: task id 'one' is not an integer"},
      {header + "kernels A\ntask 0 A\ntask 1 A\nedge 0\n", "g.txt:5: 'edge' with 1 fields"},
      {header + "kernels A\ntask 0 A\nedge 0 0\n", "g.txt:4: task 0 depends on itself"},
      {header + "kernels A\ntask 0 A\ntask 1 A\nedge 0 1\nedge 0 1 8\n",
       "g.txt:6: edge 0 -> 1 is given twice \\(first on line 5\\)"},
      {header + "kernels A\ntask 0 A\ntask 1 A\ntask 2 A\ntask 3 A\nedge 0 1\nedge 1 2\nedge 3 1\nedge 2 3\n",
       "g.txt:10: edge 2 -> 3 closes the cycle (1 -> 2 -> 3 -> 1|2 -> 3 -> 1 -> 2|3 -> 1 -> 2 -> 3); expected edges "
       "that form a directed acyclic graph"},
      {header + "kernels A\ntask 0 A\ntask 1 A\ntask 2 A\nedge 1 0\nedge 0 1\n",
       "g.txt:7: edge 0 -> 1 closes the cycle"},
      {header + "graph g\nkernels A\n# nothing else\n", "g.txt:4: no task in the file"},
      {header + "kernels A\ntask 0 A\nkernels B\n", "g.txt:4: a second 'kernels' line"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string message = error_of(c.text);
    EXPECT_TRUE(std::regex_search(message, std::regex(c.message))) << message;
  }
}

TEST(GraphFile, AMissingFileIsNamed) {
  try {
    dag::load_graph("/nonexistent/dir/graph.txt");
    FAIL();
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/graph.txt"), std::string::npos) << e.what();
  }
}

TEST(GraphFile, NamesThatCannotBeWrittenAreRefused) {
  dag::TaskGraph g("a # b", {"K"});
  g.add_task(0);
  g.finalize();
  EXPECT_THROW(dag::graph_text(g), autosched::Error);
  dag::TaskGraph h("fine", {"two words"});
  h.add_task(0);
  h.finalize();
  EXPECT_THROW(dag::graph_text(h), autosched::Error);
}
