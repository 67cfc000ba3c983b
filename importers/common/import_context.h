#pragma once
// ImportContext is what every importer receives for one file: where to write (the SessionWriter,
// already inside the import transaction, and the source row for this file), how to report progress
// and warnings, and the cancel flag to poll. Importers never throw for bad input: they record the
// problem with warn()/error(), keep what they read, and return a status.

#include "models/concurrency/cancel_token.h"
#include "models/text/printable_text.h"
#include "models/store/session_writer.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace stepscope {

struct ImportResult {
    SourceStatus status = SourceStatus::Ok;
    int64_t events = 0;        // timed events / samples written
    std::string message;       // for Failed/Partial: the first error, naming position and reason
};

class ImportContext {
public:
    using ProgressFn = std::function<void(int64_t bytesDone, int64_t bytesTotal)>;

    // Waits for this file's turn to write, adds its source row and returns the row's id.
    using EnterFn = std::function<int64_t()>;

    ImportContext(SessionWriter &writer, int64_t sourceId, std::string file,
                  const CancelToken &cancel = {}, ProgressFn progress = {})
        : m_writer(writer), m_sourceId(sourceId), m_file(std::move(file)), m_cancel(cancel),
          m_progress(std::move(progress)) {}
    // SessionImporter's workers: the file may be read before its turn to write has come. The first
    // use of the store through this context (writer(), sourceId(), a log row) waits for that turn,
    // so an importer that reads the whole file before it writes (Chrome) parses in parallel with
    // the other files while every write stays serialised, in input order.
    ImportContext(SessionWriter &writer, EnterFn enter, std::string file, const CancelToken &cancel,
                  ProgressFn progress)
        : m_writer(writer), m_sourceId(-1), m_enter(std::move(enter)), m_file(std::move(file)), m_cancel(cancel),
          m_progress(std::move(progress)) {}

    SessionWriter &writer() { enterWriting(); return m_writer; }
    int64_t sourceId() { enterWriting(); return m_sourceId; }
    const std::string &file() const { return m_file; }
    // Takes this file's turn to write now (a no-op once taken); the importer need not call it.
    void enterWriting() {
        if (m_sourceId < 0 && m_enter) m_sourceId = m_enter();
    }

    bool cancelled() const { return m_cancel.cancelled(); }
    void progress(int64_t done, int64_t total) { if (m_progress) m_progress(done, total); }

    // A first picture (ImportOptions::previewEvents): an importer that can stop early reads only
    // this many events of the file, as if it ended there. 0: the whole file.
    int64_t eventLimit() const { return m_eventLimit; }
    void setEventLimit(int64_t events) { m_eventLimit = events; }

    // Records a problem in import_log: its stable code (import_log_code.h), the position and the
    // reason in words. Warnings are capped per source in the log (the count keeps going) so a broken
    // file cannot flood the session.
    void warn(ImportLogCode code, const std::string &position, const std::string &message) {
        record(Severity::Warning, code, position, message);
    }
    void error(ImportLogCode code, const std::string &position, const std::string &message) {
        record(Severity::Error, code, position, message);
    }
    void info(ImportLogCode code, const std::string &position, const std::string &message) {
        record(Severity::Info, code, position, message);
    }
    int64_t warnings() const { return m_warnings; }
    int64_t errors() const { return m_errors; }

    static constexpr int64_t kMaxLoggedPerSource = 1000;

private:
    // Messages quote file names and names from the file: control characters become a visible \xNN
    // (printableText) so nothing in the log can drive a terminal or a view.
    static std::string printable(const std::string &text) { return printableText(text); }

    void record(Severity severity, ImportLogCode code, const std::string &position, const std::string &message) {
        if (severity == Severity::Warning) ++m_warnings;
        if (severity == Severity::Error) ++m_errors;
        enterWriting();
        if (++m_logged <= kMaxLoggedPerSource)
            m_writer.log(m_sourceId, severity, code, m_file, printable(position), printable(message));
        else if (m_logged == kMaxLoggedPerSource + 1)
            m_writer.log(m_sourceId, Severity::Warning, ImportLogCode::LogCapped, m_file, "",
                         "further problems counted but not logged");
    }

    SessionWriter &m_writer;
    int64_t m_sourceId;
    EnterFn m_enter;
    std::string m_file;
    CancelToken m_cancel;
    ProgressFn m_progress;
    int64_t m_eventLimit = 0;
    int64_t m_warnings = 0;
    int64_t m_errors = 0;
    int64_t m_logged = 0;
};

} // namespace stepscope
