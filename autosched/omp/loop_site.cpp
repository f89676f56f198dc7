#include <autosched/omp/loop_site.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace autosched::omp {

namespace {

/// The module that contains an address, and the address's offset in it.
struct ModulePlace {
  std::string path;
  std::string build_id;  ///< hex, empty when the module has none
  std::uintptr_t offset = 0;
};

std::string hex(const unsigned char* bytes, std::size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

/// The GNU build-id note among a module's PT_NOTE segments.
std::string build_id_of(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info.dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info.dlpi_addr + ph.p_vaddr);
    const unsigned char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const unsigned char* name = p + sizeof(ElfW(Nhdr));
      const unsigned char* desc = name + ((note->n_namesz + 3) & ~3U);
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0 &&
          desc + note->n_descsz <= end) {
        return hex(desc, note->n_descsz);
      }
      p = desc + ((note->n_descsz + 3) & ~3U);
    }
  }
  return {};
}

ModulePlace module_of(const void* address) {
  struct Search {
    std::uintptr_t address;
    std::optional<ModulePlace> found;
  } search{reinterpret_cast<std::uintptr_t>(address), std::nullopt};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        auto& s = *static_cast<Search*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
          if (s.address >= lo && s.address < lo + ph.p_memsz) {
            ModulePlace m;
            m.path = info->dlpi_name != nullptr ? info->dlpi_name : "";
            m.build_id = build_id_of(*info);
            m.offset = s.address - info->dlpi_addr;
            s.found = std::move(m);
            return 1;
          }
        }
        return 0;
      },
      &search);
  if (!search.found) return {"unknown", "", search.address};
  ModulePlace m = std::move(*search.found);
  if (m.path.empty()) {  // the executable itself
    char exe[4096];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    m.path = len > 0 ? std::string(exe, static_cast<std::size_t>(len)) : "program";
  }
  return m;
}

std::string basename_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Module identity: its build-id, or its size where the linker wrote none.
std::string module_key(const ModulePlace& m) {
  if (!m.build_id.empty()) return m.build_id.substr(0, 12);
  struct stat st {};
  std::string key = "s";
  key += std::to_string(stat(m.path.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : 0LL);
  return key;
}

/// A C++ symbol as people read it, without return type and parameters:
/// "_ZN5solver5relaxEv._omp_fn.0" → "solver::relax._omp_fn.0". Other names as they are.
std::string readable(const std::string& symbol) {
  const auto dot = symbol.find('.');  // GCC's outlined-body suffix stays as written
  const std::string base = symbol.substr(0, dot);
  const std::string suffix = dot == std::string::npos ? "" : symbol.substr(dot);
  int status = 0;
  char* demangled = abi::__cxa_demangle(base.c_str(), nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) {
    std::free(demangled);
    return symbol;
  }
  std::string name(demangled);
  std::free(demangled);
  // Drop the parameter list: the parenthesis that closes the name, matched backwards.
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  // Drop a return type ("void ns::f<T>"): the first blank outside <>.
  int angle = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++angle;
    if (name[i] == '>') --angle;
    if (name[i] == ' ' && angle == 0) {
      name.erase(0, i + 1);
      break;
    }
  }
  return name + suffix;
}

/// The function symbol around `offset` in the module file's symbol table
/// (.symtab, which dladdr does not read: GCC's outlined loop bodies,
/// "main._omp_fn.0", are local symbols). Empty when stripped or unreadable.
std::string symbol_at(const std::string& path, std::uintptr_t offset) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  std::string name;
  if (fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) > sizeof(ElfW(Ehdr))) {
    const auto size = static_cast<std::size_t>(st.st_size);
    void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      const auto* base = static_cast<const unsigned char*>(map);
      const auto* eh = reinterpret_cast<const ElfW(Ehdr)*>(base);
      const bool sane = std::memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_shentsize == sizeof(ElfW(Shdr)) &&
                        eh->e_shoff + static_cast<std::size_t>(eh->e_shnum) * sizeof(ElfW(Shdr)) <= size;
      for (int i = 0; sane && name.empty() && i < eh->e_shnum; ++i) {
        const auto* sh = reinterpret_cast<const ElfW(Shdr)*>(base + eh->e_shoff) + i;
        if (sh->sh_type != SHT_SYMTAB || sh->sh_link >= eh->e_shnum) continue;
        const auto* strings = reinterpret_cast<const ElfW(Shdr)*>(base + eh->e_shoff) + sh->sh_link;
        if (sh->sh_offset + sh->sh_size > size || strings->sh_offset + strings->sh_size > size) continue;
        const auto* syms = reinterpret_cast<const ElfW(Sym)*>(base + sh->sh_offset);
        for (std::size_t k = 0; k < sh->sh_size / sizeof(ElfW(Sym)); ++k) {
          const ElfW(Sym)& sym = syms[k];
          if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_name >= strings->sh_size) continue;
          if (offset >= sym.st_value && offset < sym.st_value + sym.st_size) {
            const char* str = reinterpret_cast<const char*>(base + strings->sh_offset + sym.st_name);
            name = readable(std::string(str, strnlen(str, strings->sh_size - sym.st_name)));
            char delta[32];  // two loops in one function differ here
            std::snprintf(delta, sizeof delta, "+0x%zx", static_cast<std::size_t>(offset - sym.st_value));
            name += delta;
            break;
          }
        }
      }
      munmap(map, size);
    }
  }
  close(fd);
  return name;
}

/// clang's ";file;function;line;column;;", as "file:line (function)"; empty
/// for the default string a location without debug information carries.
std::string source_of(const char* psource) {
  if (psource == nullptr) return {};
  const auto fields = text::split(psource, ';');
  if (fields.size() < 5) return {};
  const std::string file(fields[1]);
  const std::string function(fields[2]);
  const std::string line(fields[3]);
  if (file.empty() || file == "unknown" || line == "0") return {};
  std::string out = basename_of(file) + ":" + line;
  if (!function.empty() && function != "unknown") out += " (" + function + ")";
  return out;
}

/// OMP_SCHEDULE as the drop-in reads it (read_omp_schedule), once.
struct OmpSchedule {
  std::optional<std::string> raw;  ///< the variable, if set
  std::optional<Schedule> schedule;
  std::string kind;  ///< lower-case kind without modifiers ("dynamic")
  long chunk = 0;
};

const OmpSchedule& omp_schedule() {
  static const OmpSchedule value = [] {
    OmpSchedule s;
    s.raw = environment::get("OMP_SCHEDULE");
    if (!s.raw) return s;
    OmpScheduleReading r = read_omp_schedule(*s.raw, schedule_environment().alias.has_value());
    s.kind = std::move(r.kind);
    s.chunk = r.chunk;
    s.schedule = std::move(r.schedule);
    if (!r.problem.empty()) detail::warn(r.problem + "; the drop-in uses autosched's default, auto");
    return s;
  }();
  return value;
}

/// The arm the program's runtime would run for this loop.
std::string native_arm_of(Runtime runtime, AskedKind asked, long asked_chunk) {
  const auto with_chunk = [](const char* technique, long chunk) { return arm_text(technique, chunk); };
  if (asked == AskedKind::dynamic) return with_chunk("ss", asked_chunk);
  if (asked == AskedKind::guided) return with_chunk("gss", asked_chunk);
  const OmpSchedule& omp = omp_schedule();
  if (omp.raw) {
    if (omp.kind == "dynamic") return with_chunk("ss", omp.chunk);
    if (omp.kind == "guided") return with_chunk("gss", omp.chunk);
    if (omp.kind == "static" || omp.kind == "auto") return with_chunk("static", omp.chunk);
    return {};  // a technique only autosched knows: nothing native to compare with
  }
  // The run-sched-var each runtime starts with: libgomp dynamic,1; libomp static.
  return runtime == Runtime::gomp ? with_chunk("ss", 1) : with_chunk("static", 0);
}

/// Looks ids up by string_view: find_site runs once per closed instance, on
/// a program thread, and must not allocate a key there.
struct IdHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, LoopSite*> by_address;
  std::unordered_map<std::string, LoopSite*, IdHash, std::equal_to<>> by_id;
  std::vector<std::unique_ptr<LoopSite>> sites;
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: threads may still look up at exit
  return *r;
}

/// Sites by a pointer (a call site's return address, a loop's name), read
/// without lock: open addressing, written under the registry's mutex, never
/// erased (sites live as long as the process). A full table is no error:
/// the callers fall back to the registry's maps.
class SiteTable {
 public:
  [[nodiscard]] LoopSite* find(const void* key) const noexcept {
    for (std::size_t i = slot(key), probes = 0; probes < size; i = (i + 1) % size, ++probes) {
      const void* k = keys_[i].load(std::memory_order_acquire);
      if (k == key) return sites_[i].load(std::memory_order_relaxed);
      if (k == nullptr) return nullptr;
    }
    return nullptr;
  }
  /// Under the registry's mutex.
  void insert(const void* key, LoopSite* site) noexcept {
    for (std::size_t i = slot(key), probes = 0; probes < size; i = (i + 1) % size, ++probes) {
      const void* k = keys_[i].load(std::memory_order_relaxed);
      if (k == key) return;
      if (k == nullptr) {
        sites_[i].store(site, std::memory_order_relaxed);
        keys_[i].store(key, std::memory_order_release);  // publishes the site
        return;
      }
    }
  }

 private:
  static constexpr std::size_t size = 4096;
  static std::size_t slot(const void* key) noexcept {
    return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(key) * 0x9E3779B97F4A7C15ULL) >> 52) % size;
  }
  std::atomic<const void*> keys_[size] = {};
  std::atomic<LoopSite*> sites_[size] = {};
};

/// Zero-initialised statics, no allocation: 64 KiB each.
constinit SiteTable by_address_table;
constinit SiteTable by_loop_name_table;

}  // namespace

std::string arm_text(std::string_view technique, std::int64_t chunk) {
  std::string out(technique);
  // ss and gss hand out at least one iteration: chunk 0 (the default) is 1.
  if (chunk <= 0 && (technique == "ss" || technique == "gss")) chunk = 1;
  if (chunk > 0) out += ",chunk=" + std::to_string(chunk);
  return out;
}

LoopSite::LoopSite(std::string id, SitePlace place, Runtime runtime, AskedKind asked, long asked_chunk)
    : id_(std::move(id)), place_(std::move(place)), loop_(&drive::loop(id_)) {
  // The names AUTOSCHED_SCHEDULE_FOR may use besides the id: the whole
  // `where`, it without " in <module>", clang's "file:line" without
  // " (function)". Needed now only when that variable names loops.
  if (!schedule_environment().per_loop.empty()) {
    const std::string& w = where();
    names_[0] = w;
    if (const auto in_module = w.rfind(" in "); in_module != std::string::npos) names_[1] = w.substr(0, in_module);
    if (const auto function = w.find(" ("); function != std::string::npos) names_[2] = w.substr(0, function);
    for (std::size_t i = 0; i < names_.size(); ++i) name_views_[i] = names_[i];
  }
  // OMP_SCHEDULE as the program's runtime would read it: the driver's
  // default for this loop when no autosched variable names a schedule.
  const OmpSchedule& omp = omp_schedule();
  fallback_ = omp.schedule ? &*omp.schedule : nullptr;
  native_arm_ = native_arm_of(runtime, asked, asked_chunk);
}

const std::string& LoopSite::where() const {
  std::call_once(where_once_, [this] {
    if (!place_.source.empty()) {
      where_ = place_.source;
      return;
    }
    std::string symbol = symbol_at(place_.module_path, place_.offset);
    Dl_info info{};
    if (symbol.empty() && dladdr(place_.return_address, &info) != 0 && info.dli_sname != nullptr) {
      symbol = readable(info.dli_sname);
    }
    char offset[32];
    std::snprintf(offset, sizeof offset, "+0x%zx", static_cast<std::size_t>(place_.offset));
    where_ = symbol.empty() ? place_.module + offset : symbol + " in " + place_.module;
  });
  return where_;
}

LoopSite::Recorded LoopSite::record(const InstanceRecord& r, const void* point) noexcept {
  std::uint64_t chunks = 0;
  for (const ThreadStats& t : r.threads) chunks += t.chunks;
  std::lock_guard lock(mutex_);
  ++instances_;
  explored_ += r.explored ? 1 : 0;
  chunks_ += chunks;
  total_ns_ += static_cast<double>(r.metrics.loop_time_ns);
  last_.technique = r.technique;
  last_.requested = r.requested;
  // A selector's name, copied: its storage is the selector's. Fixed schedules have none.
  if (!r.selector.empty() || last_.selector[0] != '\0') {
    const std::size_t selector = std::min(r.selector.size(), sizeof last_.selector - 1);
    std::memcpy(last_.selector, r.selector.data(), selector);
    last_.selector[selector] = '\0';
  }
  last_.chunk = r.chunk;
  last_.exp_chunk = r.exp_chunk;
  last_.instance = r.instance;
  last_.explored = r.explored;
  last_.cut_short = r.cut_short;
  last_.selection_ns = r.selection_ns;
  Recorded out;
  out.first_instance = instances_ == 1;
  // A full list leaves the rest of the points unreported.
  out.new_point = point != nullptr && n_points_ < max_points &&
                  std::find(points_, points_ + n_points_, point) == points_ + n_points_;
  return out;
}

LastInstance LoopSite::last() const noexcept {
  std::lock_guard lock(mutex_);
  return last_;
}

void LoopSite::add_counts(std::uint64_t& instances, std::uint64_t& chunks) const noexcept {
  std::lock_guard lock(mutex_);
  instances += instances_;
  chunks += chunks_;
}

void LoopSite::record_point(const void* point, long resumed_instances) noexcept {
  std::lock_guard lock(mutex_);
  if (n_points_ == max_points || std::find(points_, points_ + n_points_, point) != points_ + n_points_) return;
  points_[n_points_] = point;
  points_resumed_[n_points_] = resumed_instances;
  ++n_points_;
}

SiteStats LoopSite::stats() const {
  std::lock_guard lock(mutex_);
  SiteStats s;
  s.instances = instances_;
  s.explored = explored_;
  s.chunks = chunks_;
  s.total_ns = total_ns_;
  s.last_arm = arm_text(last_.technique, last_.chunk);
  for (int i = 0; i < n_points_; ++i) {
    if (points_resumed_[i] <= 0) continue;
    ++s.resumed_points;
    s.resumed_instances += static_cast<std::uint64_t>(points_resumed_[i]);
  }
  return s;
}

namespace {
/// "omp:<module>@<build-id or size>+0x<offset>".
std::string id_of(const ModulePlace& m) {
  char offset[32];
  std::snprintf(offset, sizeof offset, "+0x%zx", static_cast<std::size_t>(m.offset));
  return "omp:" + basename_of(m.path) + "@" + module_key(m) + offset;
}
}  // namespace

std::string code_id(const void* address) { return id_of(module_of(address)); }

LoopSite& loop_site(const void* return_address, const char* source, Runtime runtime, AskedKind asked,
                    long asked_chunk) {
  // A site met before is found without lock or allocation.
  if (LoopSite* known = by_address_table.find(return_address)) [[likely]] return *known;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  LoopSite*& site = r.by_address[return_address];
  if (site == nullptr) {
    const ModulePlace m = module_of(return_address);
    const std::string module = basename_of(m.path);
    const std::string id = id_of(m);
    SitePlace place{return_address, m.path, module, m.offset, source_of(source)};
    // The same id from another address cannot happen (one module, one
    // offset), but a second site must never share a record: reuse it.
    if (auto it = r.by_id.find(id); it != r.by_id.end()) {
      site = it->second;
    } else {
      r.sites.push_back(std::make_unique<LoopSite>(id, std::move(place), runtime, asked, asked_chunk));
      site = r.sites.back().get();
      r.by_id.emplace(id, site);
      by_loop_name_table.insert(site->loop().name().c_str(), site);
    }
  }
  by_address_table.insert(return_address, site);
  return *site;
}

LoopSite* site_of_loop(const char* loop_name) noexcept {
  if (LoopSite* site = by_loop_name_table.find(loop_name)) [[likely]] return site;
  // Not one of the drop-in's loops (the native API's), or a site the table
  // had no room for.
  if (std::string_view(loop_name).rfind("omp:", 0) != 0) return nullptr;
  try {
    return find_site(loop_name);
  } catch (...) {
    return nullptr;
  }
}

LoopSite* find_site(std::string_view id) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.by_id.find(id);
  return it == r.by_id.end() ? nullptr : it->second;
}

std::vector<LoopSite*> all_sites() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<LoopSite*> out;
  for (const auto& s : r.sites) out.push_back(s.get());
  return out;
}

SiteTotals site_totals() noexcept {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  SiteTotals t;
  for (const auto& s : r.sites) {
    std::uint64_t instances = 0;
    s->add_counts(instances, t.chunks);
    t.loops += instances > 0 ? 1 : 0;
    t.instances += instances;
  }
  return t;
}

}  // namespace autosched::omp
