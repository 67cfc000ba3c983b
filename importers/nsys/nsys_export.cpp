#include "importers/nsys/nsys_export.h"

#include <algorithm>

namespace stepscope {
namespace {

constexpr int64_t kMaxDenseStrings = int64_t(64) << 20;

} // namespace

NsysExport::NsysExport(const std::filesystem::path &file)
    : m_db(ForeignDatabase::open(file, ForeignDatabase::Mode::ReadOnly)) {}

bool NsysExport::isExport(const ForeignDatabase &db) {
    if (!db.hasTable("StringIds"))
        return false;
    if (db.hasTable("NVTX_EVENTS"))
        return true;
    return std::any_of(db.tables().begin(), db.tables().end(),
                       [](const std::string &t) { return t.rfind("CUPTI_ACTIVITY_KIND_", 0) == 0; });
}

SqliteStatement NsysExport::select(const std::string &table, const std::vector<std::string> &columns,
                                   const std::string &suffix) {
    auto it = m_columns.find(table);
    if (it == m_columns.end())
        it = m_columns.emplace(table, m_db.columns(table)).first;
    std::string sql = "SELECT ";
    for (size_t i = 0; i < columns.size(); ++i) {
        if (i)
            sql += ", ";
        if (it->second.count(columns[i])) {
            sql += "\"" + columns[i] + "\"";
        } else {
            sql += "NULL";
            const std::string name = table + "." + columns[i];
            if (std::find(m_missing.begin(), m_missing.end(), name) == m_missing.end())
                m_missing.push_back(name);
        }
    }
    sql += " FROM \"" + table + "\"";
    if (!suffix.empty())
        sql += " " + suffix;
    return SqliteStatement(m_db.db(), sql);
}

int64_t NsysExport::rowEstimate(const std::string &table) const {
    if (!hasTable(table))
        return 0;
    SqliteStatement st(m_db.db(), "SELECT max(rowid) FROM \"" + table + "\"");
    return st.step() && !st.columnIsNull(0) ? std::max<int64_t>(0, st.columnInt(0)) : 0;
}

void NsysExport::loadStrings() {
    if (!hasTable("StringIds"))
        return;
    int64_t maxId = 0;
    {
        SqliteStatement st(m_db.db(), "SELECT max(id), count(*) FROM StringIds");
        if (st.step() && !st.columnIsNull(0))
            maxId = st.columnInt(0);
        // Dense when ids fill at least a quarter of 0..max and stay in bounds.
        const bool dense = maxId >= 0 && maxId < kMaxDenseStrings && st.columnInt(1) * 4 >= maxId;
        if (dense) {
            m_denseStrings.resize(size_t(maxId) + 1);
            m_denseHas.assign(size_t(maxId) + 1, 0);
        }
    }
    SqliteStatement st(m_db.db(), "SELECT id, value FROM StringIds");
    while (st.step()) {
        const int64_t id = st.columnInt(0);
        if (!m_denseStrings.empty() && id >= 0 && id < int64_t(m_denseStrings.size())) {
            m_denseStrings[size_t(id)] = st.columnText(1);
            m_denseHas[size_t(id)] = 1;
        } else {
            m_sparseStrings[id] = st.columnText(1);
        }
    }
}

bool NsysExport::hasText(int64_t id) const {
    if (id >= 0 && id < int64_t(m_denseHas.size()) && m_denseHas[size_t(id)])
        return true;
    return m_sparseStrings.count(id) > 0;
}

std::string_view NsysExport::text(int64_t id) const {
    if (id >= 0 && id < int64_t(m_denseHas.size()) && m_denseHas[size_t(id)])
        return m_denseStrings[size_t(id)];
    if (const auto it = m_sparseStrings.find(id); it != m_sparseStrings.end()) return it->second;
    static const std::string kMissing = "(a string missing from StringIds)";
    auto missing = m_missingTexts.find(id);
    if (missing != m_missingTexts.end()) return missing->second;
    ++m_missingTextCount;  // ids past the placeholders' limit are counted once each time they are asked for
    if (m_missingTexts.size() >= 10000) return kMissing;
    return m_missingTexts.emplace(id, "string id " + std::to_string(id) + " (missing from StringIds)").first->second;
}

std::map<int64_t, std::string> NsysExport::enumLabels(const std::string &table) const {
    std::map<int64_t, std::string> out;
    if (!hasTable(table))
        return out;
    const auto cols = m_db.columns(table);
    const std::string label = cols.count("label") ? "label" : cols.count("name") ? "name" : "";
    if (label.empty() || !cols.count("id"))
        return out;
    SqliteStatement st(m_db.db(), "SELECT id, \"" + label + "\" FROM \"" + table + "\"");
    while (st.step())
        out[st.columnInt(0)] = st.columnText(1);
    return out;
}

std::optional<int64_t> NsysExport::sessionStartEpochNs() const {
    if (!hasTable("TARGET_INFO_SESSION_START_TIME") || !m_db.columns("TARGET_INFO_SESSION_START_TIME").count("utcEpochNs"))
        return std::nullopt;
    SqliteStatement st(m_db.db(), "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1");
    if (st.step() && !st.columnIsNull(0) && st.columnInt(0) > 0)
        return st.columnInt(0);
    return std::nullopt;
}

std::vector<NsysGpu> NsysExport::gpus() const {
    std::vector<NsysGpu> out;
    if (!hasTable("TARGET_INFO_GPU"))
        return out;
    const auto cols = m_db.columns("TARGET_INFO_GPU");
    if (!cols.count("id"))
        return out;
    SqliteStatement st(m_db.db(), std::string("SELECT id, ") + (cols.count("name") ? "name" : "NULL") + ", " +
                                      (cols.count("totalMemory") ? "totalMemory" : "NULL") +
                                      " FROM TARGET_INFO_GPU ORDER BY id");
    while (st.step()) {
        NsysGpu g;
        g.id = st.columnInt(0);
        g.name = st.columnText(1);
        if (!st.columnIsNull(2) && st.columnInt(2) > 0)
            g.totalMemory = st.columnInt(2);
        if (std::none_of(out.begin(), out.end(), [&](const NsysGpu &o) { return o.id == g.id; }))
            out.push_back(std::move(g));
    }
    return out;
}

std::string NsysExport::hostName() const {
    if (!hasTable("TARGET_INFO_SYSTEM_ENV"))
        return {};
    const auto cols = m_db.columns("TARGET_INFO_SYSTEM_ENV");
    if (!cols.count("name") || !cols.count("value"))
        return {};
    SqliteStatement st(m_db.db(), "SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name IN ('Hostname', 'HostName') LIMIT 1");
    return st.step() ? st.columnText(0) : std::string();
}

std::string NsysExport::productVersion() const {
    for (const char *table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!hasTable(table) || !m_db.columns(table).count("name") || !m_db.columns(table).count("value"))
            continue;
        SqliteStatement st(m_db.db(), std::string("SELECT value FROM ") + table + " WHERE name = 'EXPORT_PRODUCT_VERSION'");
        if (st.step())
            return st.columnText(0);
    }
    return {};
}

std::unordered_map<int64_t, std::string> NsysExport::threadNames() const {
    std::unordered_map<int64_t, std::string> out;
    if (!hasTable("ThreadNames"))
        return out;
    const auto cols = m_db.columns("ThreadNames");
    if (!cols.count("nameId") || !cols.count("globalTid"))
        return out;
    SqliteStatement st(m_db.db(), "SELECT globalTid, nameId FROM ThreadNames");
    while (st.step())
        if (!st.columnIsNull(0) && hasText(st.columnInt(1)))
            out[st.columnInt(0)] = std::string(text(st.columnInt(1)));
    return out;
}

std::unordered_map<int64_t, std::string> NsysExport::processNames() const {
    std::unordered_map<int64_t, std::string> out;
    if (!hasTable("PROCESSES"))
        return out;
    const auto cols = m_db.columns("PROCESSES");
    if (!cols.count("pid") || !cols.count("name"))
        return out;
    SqliteStatement st(m_db.db(), "SELECT pid, name FROM PROCESSES");
    while (st.step())
        if (!st.columnIsNull(0))
            out[st.columnInt(0)] = st.columnText(1);
    return out;
}

} // namespace stepscope
