// The timeline as a Chrome trace-event file (docs/timing.md, "Timeline"): loads in the
// Perfetto UI and chrome://tracing.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "ventus/error.h"
#include "ventus/timing.h"

namespace ventus::timing {

namespace {
// Thread ids on the axis: warp slots from 0, functional units from here.
constexpr uint32_t kUnitThreadBase = 1000;
}  // namespace

struct ChromeTraceWriter::Impl {
  std::filesystem::path file;
  std::filesystem::path temporary;  // empty when writing in place (a FIFO, /dev/null)
  std::FILE* out = nullptr;
  bool first_event = true;
  uint64_t offset = 0;  // cycles of the launches before this one
  struct Pending {
    uint64_t begin = 0, end = 0;
    std::string what;
  };
  // One open slice per track (pid, tid): the next one that continues it with the same name
  // extends it instead of becoming an event of its own.
  std::map<std::pair<uint32_t, uint32_t>, Pending> open;
  std::map<std::pair<uint32_t, uint32_t>, bool> named;  // tracks whose names were written

  void write(const std::string& text) {
    if (std::fputs(text.c_str(), out) < 0)
      throw Error(fmt::format("{}: write failed: {}", file.string(), std::strerror(errno)));
  }
  void event(const nlohmann::json& e) {
    write((first_event ? "\n" : ",\n") + e.dump());
    first_event = false;
  }
  void name_track(uint32_t pid, uint32_t tid) {
    if (named.emplace(std::pair{pid, ~0u}, true).second)
      event({{"ph", "M"},
             {"pid", pid},
             {"name", "process_name"},
             {"args", {{"name", fmt::format("SM {}", pid)}}}});
    if (!named.emplace(std::pair{pid, tid}, true).second) return;
    const std::string thread =
        tid >= kUnitThreadBase
            ? fmt::format("unit {}", name(static_cast<Unit>(tid - kUnitThreadBase)))
            : fmt::format("warp {}", tid);
    event({{"ph", "M"},
           {"pid", pid},
           {"tid", tid},
           {"name", "thread_name"},
           {"args", {{"name", thread}}}});
    event({{"ph", "M"},
           {"pid", pid},
           {"tid", tid},
           {"name", "thread_sort_index"},
           {"args", {{"sort_index", tid}}}});
  }
  void flush(std::pair<uint32_t, uint32_t> track, const Pending& p) {
    event({{"ph", "X"},
           {"pid", track.first},
           {"tid", track.second},
           {"ts", p.begin},
           {"dur", p.end - p.begin},
           {"name", p.what}});
  }
  void close_file() {
    if (out) std::fclose(out);
    out = nullptr;
  }
};

ChromeTraceWriter::ChromeTraceWriter(std::filesystem::path file) : impl_(std::make_unique<Impl>()) {
  impl_->file = std::move(file);
  // A FIFO or a device (/dev/null, /dev/stdout) is written in place: renaming a temporary
  // file over it would replace the device node itself (as root, /dev/null).
  struct stat target;
  if (::stat(impl_->file.c_str(), &target) != 0 || S_ISREG(target.st_mode)) {
    impl_->temporary = impl_->file;
    impl_->temporary += fmt::format(".tmp{}", ::getpid());
  }
  impl_->out =
      std::fopen((impl_->temporary.empty() ? impl_->file : impl_->temporary).c_str(), "wb");
  if (!impl_->out)
    throw Error(fmt::format("{}: cannot write the timeline: {}", impl_->file.string(),
                            std::strerror(errno)));
  impl_->write(
      "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"time\": \"1 us on the axis is one cycle\"},"
      "\n\"traceEvents\": [");
}

ChromeTraceWriter::~ChromeTraceWriter() {
  if (impl_->out) {  // not finished: no half-written file is left behind
    impl_->close_file();
    std::error_code ec;
    if (!impl_->temporary.empty()) std::filesystem::remove(impl_->temporary, ec);
  }
}

void ChromeTraceWriter::begin_launch(std::string_view kernel, uint64_t offset) {
  impl_->offset = offset;
  impl_->event({{"ph", "i"},
                {"s", "g"},
                {"pid", 0},
                {"tid", 0},
                {"ts", offset},
                {"name", fmt::format("launch {}", kernel)}});
}

void ChromeTraceWriter::slice(uint32_t sm, Track track, uint32_t index, uint64_t begin,
                              uint64_t end, std::string_view what) {
  const uint32_t tid = track == Track::Unit ? kUnitThreadBase + index : index;
  const std::pair key{sm, tid};
  begin += impl_->offset;
  end += impl_->offset;
  auto it = impl_->open.find(key);
  if (it != impl_->open.end()) {
    Impl::Pending& p = it->second;
    if (p.end == begin && p.what == what) {
      p.end = end;
      return;
    }
    impl_->flush(key, p);
    p = {begin, end, std::string(what)};
    return;
  }
  impl_->name_track(sm, tid);
  impl_->open.emplace(key, Impl::Pending{begin, end, std::string(what)});
}

void ChromeTraceWriter::finish() {
  if (!impl_->out) return;
  for (const auto& [key, p] : impl_->open) impl_->flush(key, p);
  impl_->open.clear();
  impl_->write("\n]}\n");
  const bool failed = std::fflush(impl_->out) != 0 || std::ferror(impl_->out);
  const int error = errno;
  impl_->close_file();
  std::error_code ec;
  if (failed) {
    if (!impl_->temporary.empty()) std::filesystem::remove(impl_->temporary, ec);
    throw Error(fmt::format("{}: write failed: {}", impl_->file.string(), std::strerror(error)));
  }
  if (impl_->temporary.empty()) return;
  std::filesystem::rename(impl_->temporary, impl_->file, ec);
  if (ec) {
    std::filesystem::remove(impl_->temporary, ec);
    throw Error(
        fmt::format("{}: cannot write the timeline: {}", impl_->file.string(), ec.message()));
  }
}

}  // namespace ventus::timing
