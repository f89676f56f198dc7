#include <autosched/regions/model_file.hpp>

#include <autosched/core/hash.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace autosched {

namespace {

constexpr std::string_view magic = "autosched-region-model";
constexpr std::size_t max_trees = 1000;

/// Reads the text line by line; each getter fails cleanly at the end.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const auto nl = text_.find('\n', pos_);
    if (nl == std::string_view::npos) return false;  // every line ends with '\n'
    line = text_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    return true;
  }
  /// "key value…": the value after "key ".
  bool field(std::string_view key, std::string_view& value) {
    std::string_view line;
    if (!next(line) || !line.starts_with(key) || line.size() < key.size() + 1 || line[key.size()] != ' ') return false;
    value = line.substr(key.size() + 1);
    return true;
  }
  [[nodiscard]] std::size_t position() const noexcept { return pos_; }
  [[nodiscard]] std::size_t remaining() const noexcept { return text_.size() - pos_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

bool to_count(std::string_view s, std::size_t limit, std::size_t& out) {
  if (s.empty() || s.size() > 9) return false;
  std::size_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  if (v > limit) return false;
  out = v;
  return true;
}

}  // namespace

std::string write_model_text(const ModelFile& file) {
  std::string out;
  char buf[96];
  out += std::string(magic) + " " + std::to_string(ModelFile::format_version) + "\n";
  out += "region " + file.region + "\n";
  out += "features " + std::to_string(file.features.size()) + "\n";
  for (const auto& f : file.features) out += "feature " + f + "\n";
  out += "variants " + std::to_string(file.variant_count) + " " + file.variants + "\n";
  out += "model " + file.model + "\n";
  out += "fingerprint " + file.fingerprint + "\n";
  out += "build " + file.build + "\n";
  out += "trees " + std::to_string(file.trees.size()) + "\n";
  for (const auto& tree : file.trees) {
    out += "tree " + std::to_string(tree.size()) + "\n";
    for (const TreeNode& n : tree) {
      std::snprintf(buf, sizeof buf, "%a %d %d\n", n.threshold, static_cast<int>(n.feature), static_cast<int>(n.child));
      out += buf;
    }
  }
  out += file.samples.empty() ? std::string("samples none\n") : file.samples;
  std::snprintf(buf, sizeof buf, "checksum %016" PRIx64 "\n", fnv1a64(out));
  return out + buf;
}

std::optional<ModelFile> read_model_text(std::string_view text, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<ModelFile> {
    if (why) *why = reason;
    return std::nullopt;
  };
  // The checksum first: a damaged file is reported as damaged, whatever the
  // damage happens to look like.
  const auto last = text.rfind("checksum ");
  if (!text.starts_with(magic)) return fail("not an autosched region model (no '" + std::string(magic) + "' header)");
  if (last == std::string_view::npos || (last > 0 && text[last - 1] != '\n'))
    return fail("no checksum line (the file is truncated)");
  {
    const std::string_view tail = text.substr(last + 9);
    char expected[17] = {};
    std::snprintf(expected, sizeof expected, "%016" PRIx64, fnv1a64(text.substr(0, last)));
    if (tail != std::string(expected) + "\n") return fail("checksum mismatch (the file is damaged or truncated)");
  }
  Lines lines(text.substr(0, last));
  ModelFile f;
  std::string_view v;
  if (!lines.field(magic, v)) return fail("bad header");
  if (v != std::to_string(ModelFile::format_version))
    return fail("format version " + std::string(v) + "; this autosched reads version " +
                std::to_string(ModelFile::format_version));
  if (!lines.field("region", v)) return fail("no region line");
  f.region = v;
  std::size_t count = 0;
  if (!lines.field("features", v) || !to_count(v, 4096, count)) return fail("bad features line");
  for (std::size_t i = 0; i < count; ++i) {
    if (!lines.field("feature", v)) return fail("fewer feature lines than declared");
    f.features.emplace_back(v);
  }
  if (!lines.field("variants", v)) return fail("no variants line");
  {
    const auto space = v.find(' ');
    std::size_t n = 0;
    if (space == std::string_view::npos || !to_count(v.substr(0, space), 1 << 20, n) || n == 0)
      return fail("bad variants line");
    f.variant_count = static_cast<int>(n);
    f.variants = v.substr(space + 1);
  }
  if (!lines.field("model", v)) return fail("no model line");
  f.model = v;
  if (!lines.field("fingerprint", v)) return fail("no fingerprint line");
  f.fingerprint = v;
  if (!lines.field("build", v)) return fail("no build line");
  f.build = v;
  std::size_t trees = 0;
  if (!lines.field("trees", v) || !to_count(v, max_trees, trees)) return fail("bad trees line");
  for (std::size_t t = 0; t < trees; ++t) {
    std::size_t nodes = 0;
    // A node takes at least 6 characters: no count beyond what the text holds.
    if (!lines.field("tree", v) || !to_count(v, lines.remaining() / 6, nodes) || nodes == 0)
      return fail("bad tree line for tree " + std::to_string(t));
    std::vector<TreeNode> tree;
    tree.reserve(nodes);
    for (std::size_t i = 0; i < nodes; ++i) {
      std::string_view line;
      if (!lines.next(line)) return fail("tree " + std::to_string(t) + " ends early");
      const std::string s(line);
      char* end = nullptr;
      TreeNode n;
      n.threshold = std::strtod(s.c_str(), &end);
      if (end == s.c_str() || std::isnan(n.threshold)) return fail("bad node threshold in tree " + std::to_string(t));
      char* end2 = nullptr;
      const long feature = std::strtol(end, &end2, 10);
      if (end2 == end) return fail("bad node feature in tree " + std::to_string(t));
      char* end3 = nullptr;
      const long child = std::strtol(end2, &end3, 10);
      if (end3 == end2 || *end3 != '\0') return fail("bad node child in tree " + std::to_string(t));
      if (feature < -1 || feature > (1 << 20) || child < 0 || child > (1 << 30))
        return fail("node out of range in tree " + std::to_string(t));
      n.feature = static_cast<std::int32_t>(feature);
      n.child = static_cast<std::int32_t>(child);
      tree.push_back(n);
    }
    f.trees.push_back(std::move(tree));
  }
  const std::string_view rest = text.substr(lines.position(), last - lines.position());
  if (rest == "samples none\n") return f;
  if (!rest.starts_with("samples ")) return fail("no samples section");
  f.samples = rest;
  return f;
}

}  // namespace autosched
