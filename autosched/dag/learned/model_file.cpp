#include <autosched/dag/learned/model_file.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/hash.hpp>
#include <autosched/core/text.hpp>

#include <torch/serialize.h>
#include <torch/types.h>

#include <unistd.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <utility>

namespace autosched::dag::learned {

namespace {

// ---------------------------------------------------------------------------
// The sidecar's JSON: one flat object whose values are strings, numbers,
// null, booleans or arrays of strings. Nothing else is written, so nothing
// else is read.

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_strings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + json_string(items[i]);
  return out + "]";
}

struct JsonValue {
  enum class Kind { null, boolean, number, string, strings } kind = Kind::null;
  std::string text;                ///< a string, or a number's token
  std::vector<std::string> items;  ///< an array of strings
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view s) : s_(s) {}

  /// The object's members; nullopt and `why` on the first problem.
  std::optional<std::map<std::string, JsonValue>> object(std::string* why) {
    std::map<std::string, JsonValue> members;
    if (!expect('{')) return fail(why, "expected '{'");
    if (peek() == '}') {
      ++pos_;
    } else {
      for (;;) {
        std::string key;
        if (peek() != '"' || !string(key)) return fail(why, "expected a member name");
        if (!expect(':')) return fail(why, "expected ':' after \"" + key + "\"");
        JsonValue v;
        if (!value(v)) return fail(why, "bad value for \"" + key + "\"");
        if (!members.emplace(key, std::move(v)).second) return fail(why, "\"" + key + "\" given twice");
        const char c = peek();
        ++pos_;
        if (c == '}') break;
        if (c != ',') return fail(why, "expected ',' or '}'");
      }
    }
    if (peek() != '\0') return fail(why, "text after the object");
    return members;
  }

 private:
  std::optional<std::map<std::string, JsonValue>> fail(std::string* why, const std::string& what) {
    if (why) *why = what + " at byte " + std::to_string(pos_);
    return std::nullopt;
  }
  /// The next non-blank character ('\0' at the end), not consumed.
  char peek() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool expect(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool value(JsonValue& v) {
    const char c = peek();
    if (c == '"') {
      v.kind = JsonValue::Kind::string;
      return string(v.text);
    }
    if (c == '[') {
      ++pos_;
      v.kind = JsonValue::Kind::strings;
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      for (;;) {
        std::string item;
        if (peek() != '"' || !string(item)) return false;
        v.items.push_back(std::move(item));
        const char d = peek();
        ++pos_;
        if (d == ']') return true;
        if (d != ',') return false;
      }
    }
    for (const auto& [word, kind] : {std::pair{std::string_view("null"), JsonValue::Kind::null},
                                     std::pair{std::string_view("true"), JsonValue::Kind::boolean},
                                     std::pair{std::string_view("false"), JsonValue::Kind::boolean}}) {
      if (s_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        v.kind = kind;
        v.text = word;
        return true;
      }
    }
    const std::size_t start = pos_;
    while (pos_ < s_.size() && std::string_view("+-.0123456789eE").find(s_[pos_]) != std::string_view::npos) ++pos_;
    v.kind = JsonValue::Kind::number;
    v.text = s_.substr(start, pos_ - start);
    return text::to_double(v.text).has_value();
  }
  static void utf8(std::uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  bool hex4(std::uint32_t& cp) {
    if (pos_ + 4 > s_.size()) return false;
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      cp <<= 4;
      if (c >= '0' && c <= '9') {
        cp |= static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        cp |= static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        cp |= static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
    }
    return true;
  }
  /// A string at pos_ (its opening quote), unescaped into `out`.
  bool string(std::string& out) {
    ++pos_;
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) return false;
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xd800 && cp < 0xdc00) {  // a surrogate pair
            std::uint32_t low = 0;
            if (s_.substr(pos_, 2) != "\\u") return false;
            pos_ += 2;
            if (!hex4(low) || low < 0xdc00 || low >= 0xe000) return false;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            return false;
          }
          utf8(cp, out);
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

// ---------------------------------------------------------------------------

std::string checksum_text(std::uint64_t h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016" PRIx64, h);
  return buf;
}

std::vector<std::string> build_features() {
  std::vector<std::string> names;
  for (int i = 0; i < policy::feature_count; ++i) names.emplace_back(policy::feature_name(i));
  return names;
}

std::string today() { return text::utc_now("%Y-%m-%d"); }

/// c10::Error's message without its C++ backtrace.
std::string torch_message(const std::exception& e) {
  if (const auto* c10 = dynamic_cast<const c10::Error*>(&e)) return c10->what_without_backtrace();
  return e.what();
}

std::string first_line(const std::string& s) {
  const auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

/// `path`'s temporary sibling (same folder, so rename() is atomic).
std::string temporary_for(const std::string& path) { return path + ".tmp-" + std::to_string(::getpid()); }

}  // namespace

std::uint64_t weights_checksum(const policy::PolicyWeights& weights) {
  std::string bytes;
  for (const auto& v : weights.values)
    bytes.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
  return fnv1a64(bytes);
}

void save_model(const std::string& path, const policy::PolicyWeights& weights, const ModelInfo& info) {
  const std::string where = "readys model '" + path + "'";
  weights.check();
  const std::string sidecar = path + ".json";
  for (const std::string& p : {path, sidecar}) {
    if (const std::string kind = files::special_kind(p); !kind.empty())
      autosched::detail::throw_error(where + ": cannot write '" + p + "': it is " + kind + ", not a regular file");
  }
  // A state_dict: parameter name -> float32 tensor, in layout order.
  const auto layout = policy::parameter_layout(weights.shape);
  c10::Dict<std::string, torch::Tensor> state;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    auto t = torch::empty({layout[i].rows, layout[i].cols}, torch::TensorOptions().dtype(torch::kFloat));
    std::copy(weights.values[i].begin(), weights.values[i].end(), t.data_ptr<float>());
    if (layout[i].cols == 1) t = t.reshape({layout[i].rows});  // a bias, as torch::nn::Linear holds it
    state.insert(layout[i].name, t);
  }

  std::string json = "{\n";
  const auto member = [&json](std::string_view key, const std::string& value, bool last = false) {
    json += "  " + json_string(key) + ": " + value + (last ? "\n" : ",\n");
  };
  member("format", json_string(model_format));
  member("format_version", std::to_string(model_format_version));
  member("observation_version", std::to_string(policy::observation_version));
  member("features", json_strings(build_features()));
  member("hidden", std::to_string(weights.shape.hidden));
  member("layers", std::to_string(weights.shape.layers));
  member("window", std::to_string(weights.shape.window));
  member("family", json_string(info.family));
  member("platforms", json_strings(info.platforms));
  member("training_command", json_string(info.training_command));
  member("created", json_string(info.created.empty() ? today() : info.created));
  member("notes", json_string(info.notes));
  member("steps", std::to_string(info.steps));
  member("validation_metric", json_string(info.validation_metric));
  if (info.validation_score && std::isfinite(*info.validation_score)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", *info.validation_score);
    member("validation_score", buf);
  } else {
    member("validation_score", "null");
  }
  member("checksum", json_string(checksum_text(weights_checksum(weights))), true);
  json += "}\n";

  // Both temporaries first, then the renames: a failure leaves the old model whole.
  const std::string model_tmp = temporary_for(path), sidecar_tmp = temporary_for(sidecar);
  std::error_code ignored;
  std::vector<char> pickle;
  try {
    pickle = torch::pickle_save(c10::IValue(state));
  } catch (const std::exception& e) {
    autosched::detail::throw_error(where + ": libtorch cannot serialise the weights: " + first_line(torch_message(e)));
  }
  {
    std::ofstream out(model_tmp, std::ios::binary | std::ios::trunc);
    out.write(pickle.data(), static_cast<std::streamsize>(pickle.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(model_tmp, ignored);
      autosched::detail::throw_error(where + ": cannot write '" + model_tmp + "'");
    }
  }
  {
    std::ofstream out(sidecar_tmp, std::ios::binary | std::ios::trunc);
    out << json;
    out.close();
    if (!out) {
      std::filesystem::remove(model_tmp, ignored);
      std::filesystem::remove(sidecar_tmp, ignored);
      autosched::detail::throw_error(where + ": cannot write its sidecar '" + sidecar_tmp + "'");
    }
  }
  std::error_code ec;
  std::filesystem::rename(model_tmp, path, ec);
  if (!ec) std::filesystem::rename(sidecar_tmp, sidecar, ec);
  if (ec) {
    std::filesystem::remove(model_tmp, ignored);
    std::filesystem::remove(sidecar_tmp, ignored);
    autosched::detail::throw_error(where + ": cannot rename the written files into place: " + ec.message());
  }
}

std::optional<LoadedModel> try_load_model(const std::string& path, std::string* why) {
  const auto fail = [why](const std::string& reason) -> std::optional<LoadedModel> {
    if (why) *why = reason;
    return std::nullopt;
  };
  const std::string sidecar = path + ".json";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail("the model file is missing");
  if (!std::filesystem::exists(sidecar, ec)) return fail("its sidecar '" + sidecar + "' is missing");

  // The sidecar: format, then agreement with this build.
  std::string reason;
  const auto text = files::read_regular(sidecar, std::size_t{1} << 20, &reason);
  if (!text) return fail("its sidecar '" + sidecar + "': " + reason);
  const auto members = JsonReader(*text).object(&reason);
  if (!members) return fail("its sidecar '" + sidecar + "' is not valid JSON: " + reason);
  const auto get = [&](const std::string& key, JsonValue::Kind kind) -> const JsonValue* {
    const auto it = members->find(key);
    return it != members->end() && it->second.kind == kind ? &it->second : nullptr;
  };
  const auto text_of = [&](const std::string& key) {
    const JsonValue* v = get(key, JsonValue::Kind::string);
    return v ? v->text : std::string();
  };
  const auto integer = [&](const std::string& key, std::int64_t low, std::int64_t high) -> std::optional<std::int64_t> {
    const JsonValue* v = get(key, JsonValue::Kind::number);
    if (!v) return std::nullopt;
    const auto n = text::to_int(v->text);
    if (!n || *n < low || *n > high) return std::nullopt;
    return n;
  };
  const std::string in_sidecar = "its sidecar '" + sidecar + "'";
  if (const JsonValue* format = get("format", JsonValue::Kind::string); !format || format->text != model_format)
    return fail(in_sidecar + " is not an \"" + std::string(model_format) + "\" sidecar (\"format\" is " +
                (format ? "\"" + text::escape(format->text, 100) + "\"" : std::string("missing")) + ")");
  const auto version = integer("format_version", 0, 1 << 30);
  if (version != model_format_version)
    return fail(in_sidecar + " has format version " + (version ? std::to_string(*version) : std::string("?")) +
                "; this build reads version " + std::to_string(model_format_version));
  const auto observation = integer("observation_version", 0, 1 << 30);
  if (observation != policy::observation_version)
    return fail("trained with observation version " +
                (observation ? std::to_string(*observation) : std::string("?")) + ", this build has version " +
                std::to_string(policy::observation_version));
  const std::vector<std::string> ours = build_features();
  const JsonValue* features = get("features", JsonValue::Kind::strings);
  if (!features) return fail(in_sidecar + " has no \"features\" list");
  if (features->items != ours) {
    std::string diff;
    for (std::size_t i = 0; i < std::max(ours.size(), features->items.size()) && diff.empty(); ++i) {
      const std::string theirs = i < features->items.size() ? features->items[i] : "(none)";
      const std::string mine = i < ours.size() ? ours[i] : "(none)";
      if (theirs != mine) diff = "feature " + std::to_string(i) + " is " + theirs + " there, " + mine + " here";
    }
    std::vector<std::string_view> a(features->items.begin(), features->items.end()), b(ours.begin(), ours.end());
    return fail("trained with features " + text::escape(text::join(a), 1000) + "; this build has " + text::join(b) +
                " (" + text::escape(diff, 200) + ")");
  }
  const auto hidden = integer("hidden", 1, 4096), layers = integer("layers", 0, 64), window = integer("window", 0, 64);
  if (!hidden || !layers || !window)
    return fail(in_sidecar + ": \"hidden\" (1..4096), \"layers\" (0..64) and \"window\" (0..64) must be integers");
  const std::string checksum = text_of("checksum");
  if (checksum.empty()) return fail(in_sidecar + " has no \"checksum\"");

  LoadedModel model;
  ModelInfo& info = model.info;
  info.family = text_of("family");
  if (const JsonValue* p = get("platforms", JsonValue::Kind::strings)) info.platforms = p->items;
  info.training_command = text_of("training_command");
  info.created = text_of("created");
  info.notes = text_of("notes");
  info.observation_version = static_cast<int>(*observation);
  info.steps = integer("steps", 0, std::numeric_limits<std::int64_t>::max()).value_or(0);
  info.validation_metric = text_of("validation_metric");
  if (const JsonValue* v = get("validation_score", JsonValue::Kind::number)) info.validation_score = text::to_double(v->text);

  // The archive: every parameter of the sidecar's shape, finite, and the
  // checksum the sidecar recorded.
  policy::PolicyShape shape;
  shape.hidden = static_cast<int>(*hidden);
  shape.layers = static_cast<int>(*layers);
  shape.window = static_cast<int>(*window);
  const auto bytes = files::read_regular(path, files::default_read_limit, &reason);
  if (!bytes) return fail(reason);
  c10::IValue loaded;
  try {
    loaded = torch::pickle_load(std::vector<char>(bytes->begin(), bytes->end()));
  } catch (const std::exception& e) {
    return fail("libtorch cannot read the archive: " + first_line(torch_message(e)));
  }
  if (!loaded.isGenericDict()) return fail("the archive does not hold a dictionary of parameters");
  const auto state = loaded.toGenericDict();
  const auto layout = policy::parameter_layout(shape);
  model.weights.shape = shape;
  for (const auto& spec : layout) {
    const auto found = state.find(c10::IValue(spec.name));
    if (found == state.end()) return fail("parameter '" + spec.name + "' is missing from the archive");
    if (!found->value().isTensor()) return fail("parameter '" + spec.name + "' is not a tensor");
    const torch::Tensor t = found->value().toTensor();
    const std::vector<std::int64_t> expected =
        spec.cols == 1 ? std::vector<std::int64_t>{spec.rows} : std::vector<std::int64_t>{spec.rows, spec.cols};
    if (t.sizes().vec() != expected || !t.is_floating_point()) {
      std::string got;
      for (const auto d : t.sizes()) got += (got.empty() ? "" : "x") + std::to_string(d);
      std::string want;
      for (const auto d : expected) want += (want.empty() ? "" : "x") + std::to_string(d);
      return fail("parameter '" + spec.name + "' is " + (got.empty() ? "a scalar" : got) + " " +
                  std::string(t.dtype().name()) + ", the sidecar's shape (hidden " + std::to_string(shape.hidden) +
                  ", layers " + std::to_string(shape.layers) + ") needs " + want + " float");
    }
    const torch::Tensor f = t.to(torch::kFloat).contiguous();
    const float* data = f.data_ptr<float>();
    model.weights.values.emplace_back(data, data + f.numel());
    for (const float v : model.weights.values.back()) {
      if (!std::isfinite(v)) return fail("parameter '" + spec.name + "' holds a non-finite value");
    }
  }
  if (const std::string actual = checksum_text(weights_checksum(model.weights)); actual != checksum)
    return fail("checksum mismatch: the sidecar says " + text::escape(checksum, 100) + ", the weights hash to " + actual +
                " (a damaged archive, or a sidecar from another model)");
  return model;
}

LoadedModel load_model(const std::string& path) {
  std::string why;
  auto model = try_load_model(path, &why);
  if (!model) autosched::detail::throw_error("readys model '" + path + "': " + why);
  return std::move(*model);
}

}  // namespace autosched::dag::learned
