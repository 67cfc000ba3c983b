#pragma once
// Helpers shared by the libFuzzer targets in tests/fuzz and by their regression replay test
// (tests/robustness/tst_fuzz_regressions.cpp): splitting an input into lines as LineTokenizer would,
// writing an input to a scratch file for the file-based readers, and a scratch session for the
// whole-import targets (one store per process; each input is imported and rolled back).

#include "importers/common/import_context.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace stepscope::fuzz {

// Calls `onLine` for every line of `text` ("\n" separated, a trailing "\r" removed).
inline void forEachLine(std::string_view text, const std::function<void(std::string_view)> &onLine) {
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        onLine(line);
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
}

// A per-process scratch folder (RAM-backed when /dev/shm exists), removed at exit.
inline const std::filesystem::path &scratchDir() {
    static const std::filesystem::path dir = [] {
        std::error_code ec;
        std::filesystem::path base = std::filesystem::is_directory("/dev/shm", ec) ? std::filesystem::path("/dev/shm")
                                                                                : std::filesystem::temp_directory_path();
        std::filesystem::path d = base / ("stepscope-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d, ec);
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(scratchDir(), ignored);
        });
        return d;
    }();
    return dir;
}

// Writes `data` to scratchDir()/name and returns the path.
inline std::filesystem::path writeScratch(const std::string &name, const uint8_t *data, size_t size) {
    const std::filesystem::path p = scratchDir() / name;
    if (FILE *f = std::fopen(p.c_str(), "wb")) {
        if (size) std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    return p;
}

// Runs `body` with an ImportContext inside an import transaction on a scratch session that lives
// for the whole process; the transaction is rolled back so the session never grows.
inline void withImportContext(const std::string &file, const std::function<void(ImportContext &)> &body) {
    static std::unique_ptr<SessionStore> store = [] {
        const auto p = scratchDir() / "session.stepscope";
        std::error_code ec;
        std::filesystem::remove(p, ec);
        return std::make_unique<SessionStore>(p);
    }();
    SessionWriter writer(*store);
    writer.begin();
    const int64_t sourceId = writer.addSource(file, "fuzz", 0);
    ImportContext ctx(writer, sourceId, file);
    body(ctx);
    writer.rollback();
}

} // namespace stepscope::fuzz

// Each target defines its body in its own namespace and, outside the replay test, the libFuzzer
// entry point through this macro.
#ifdef STEPSCOPE_FUZZ_REPLAY
#define STEPSCOPE_FUZZ_ENTRY(fn)
#else
#define STEPSCOPE_FUZZ_ENTRY(fn)                                                                   \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {                     \
        fn(data, size);                                                                            \
        return 0;                                                                                  \
    }
#endif

// Targets that run whole commands (export renders views) need a QApplication, made once, offscreen.
#ifdef STEPSCOPE_FUZZ_REPLAY
#define STEPSCOPE_FUZZ_GUI_INIT()
#else
#include <QApplication>
#define STEPSCOPE_FUZZ_GUI_INIT()                                                                  \
    extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {                                \
        setenv("QT_QPA_PLATFORM", "offscreen", 1);                                                 \
        /* never destroyed: Qt's exit routines must not run after libFuzzer's exit() */            \
        static QApplication *app = new QApplication(*argc, *argv);                                 \
        (void)app;                                                                                 \
        return 0;                                                                                  \
    }
#endif
