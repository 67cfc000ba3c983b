#include "models/qt/background_reader.h"

#include "models/store/session_store.h"

#include <chrono>

namespace stepscope {

BackgroundReader::BackgroundReader(QObject *parent) : QObject(parent) {
    connect(&m_job, &BackgroundJob::busyChanged, this, &BackgroundReader::busyChanged);
}

bool BackgroundReader::start(const std::filesystem::path &file, Work work) {
    std::error_code ec;
    if (file.empty() || !std::filesystem::is_regular_file(file, ec)) return false;
    m_job.start([file, work = std::move(work)](const CancelToken &cancel) -> BackgroundJob::Deliver {
        SessionConnection conn;
        try {
            conn = SessionStore::openReadOnlyConnection(file);
        } catch (const StoreError &) {
            return {};  // not readable now (or not a session Stepscope trusts): nothing to show
        }
        if (!conn.db()) return {};
        conn.setBusyTimeout(std::chrono::milliseconds(2000));
        cancel.setInterrupt([&conn] { conn.interrupt(); });
        BackgroundJob::Deliver deliver;
        try {
            deliver = work(conn, cancel);
        } catch (const std::exception &) {
            deliver = {};  // interrupted, damaged or unreadable now (StoreError, bad_alloc): nothing to show
        }
        cancel.setInterrupt({});  // before the connection closes
        return deliver;
    });
    return true;
}

} // namespace stepscope
