#include <autosched/dag/learned/register.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/dag/learned/model_file.hpp>
#include <autosched/dag/policy/readys_scheduler.hpp>

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>

namespace autosched::dag::learned {

namespace {

/// The scheduler used when a model is refused.
constexpr std::string_view fallback = "mct-prio";

std::unique_ptr<Scheduler> readys_family(std::string_view argument) {
  const std::string path(argument);
  std::string reason;
  auto scheduler = make_readys(path, &reason);
  // Once per model and reason: tools build a scheduler more than once.
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard lock(mutex);
  if (!reason.empty() && said.insert(path + '\n' + reason).second) {
    std::fprintf(stderr, "autosched: warning: readys model '%s' refused: %s; falling back to %.*s\n",
                 text::escape(path, 512).c_str(), text::escape(reason, 2048).c_str(),
                 static_cast<int>(fallback.size()), fallback.data());
  }
  return scheduler;
}

}  // namespace

std::string model_path(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (name.empty() || fs::is_regular_file(name, ec) || name.find('/') != std::string::npos) return name;
  for (const char* dir : {AUTOSCHED_SOURCE_MODELS, AUTOSCHED_INSTALLED_MODELS}) {
    const fs::path candidate = fs::path(dir) / (name + ".model");
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return name;
}

std::unique_ptr<Scheduler> make_readys(const std::string& name, std::string* refused_reason) {
  if (name.empty()) autosched::detail::throw_error("readys needs a model: readys:<file>");
  const std::string path = model_path(name);
  std::string why;
  auto model = try_load_model(path, &why);
  if (refused_reason) *refused_reason = model ? std::string() : why;
  if (!model) return make_scheduler(fallback);
  return std::make_unique<policy::ReadysScheduler>(
      std::make_shared<const policy::PolicyWeights>(std::move(model->weights)));
}

void register_learned_schedulers() { register_scheduler_family("readys", &readys_family); }

}  // namespace autosched::dag::learned
