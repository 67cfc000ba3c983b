#pragma once
// NsysExport reads an Nsight Systems SQLite export (FORMATS.md §8) through a read-only
// ForeignDatabase: which tables and columns this export has (tables and columns vary between nsys
// releases, so every one is optional and read by name), the StringIds table, enum labels, the
// capture's UTC start, its GPUs, threads and processes. select() builds a query over the columns
// asked for, NULL for the ones this export lacks, and remembers each missing one for the import log.

#include "models/store/foreign_database.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope {

struct NsysGpu {
    int64_t id = 0;
    std::string name;
    std::optional<int64_t> totalMemory;  // bytes
};

class NsysExport {
public:
    // Throws StoreError naming the file (not SQLite, locked, damaged).
    explicit NsysExport(const std::filesystem::path &file);

    // The tables that make a file an export (StringIds and a CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS table).
    static bool isExport(const ForeignDatabase &db);
    bool isExport() const { return isExport(m_db); }

    const ForeignDatabase &db() const { return m_db; }
    bool hasTable(const std::string &table) const { return m_db.hasTable(table); }
    // SELECT col, ... FROM table [suffix]; missing columns read as NULL and are noted.
    SqliteStatement select(const std::string &table, const std::vector<std::string> &columns,
                           const std::string &suffix = {});
    // Upper bound of the rows of `table` (max rowid; 0 when absent), for progress.
    int64_t rowEstimate(const std::string &table) const;

    // Loads StringIds. Ids are dense in practice; a sparse table falls back to a map.
    void loadStrings();
    // The string of `id`; one StringIds does not hold reads as "string id N (missing from StringIds)"
    // and is counted in missingTexts().
    std::string_view text(int64_t id) const;
    int64_t missingTexts() const { return m_missingTextCount; }
    bool hasText(int64_t id) const;

    // `label` (else `name`) of each id in an ENUM_* table; empty when the table is absent.
    std::map<int64_t, std::string> enumLabels(const std::string &table) const;

    std::optional<int64_t> sessionStartEpochNs() const;  // TARGET_INFO_SESSION_START_TIME.utcEpochNs
    std::vector<NsysGpu> gpus() const;                   // TARGET_INFO_GPU
    std::string hostName() const;                        // TARGET_INFO_SYSTEM_ENV Hostname, if recorded
    std::string productVersion() const;                  // META_DATA_EXPORT / EXPORT_META_DATA
    std::unordered_map<int64_t, std::string> threadNames() const;   // globalTid → name
    std::unordered_map<int64_t, std::string> processNames() const;  // pid → name

    // Columns asked for that this export lacks, as "TABLE.column".
    const std::vector<std::string> &missingColumns() const { return m_missing; }

    static int64_t pidOf(int64_t globalTid) { return (globalTid >> 24) & 0xFFFFFF; }
    static int64_t tidOf(int64_t globalTid) { return globalTid & 0xFFFFFF; }

private:
    ForeignDatabase m_db;
    std::map<std::string, std::set<std::string>> m_columns;
    std::vector<std::string> m_missing;
    std::vector<std::string> m_denseStrings;
    std::vector<uint8_t> m_denseHas;
    std::unordered_map<int64_t, std::string> m_sparseStrings;
    mutable std::unordered_map<int64_t, std::string> m_missingTexts;  // placeholders, by id (the first 10,000)
    mutable int64_t m_missingTextCount = 0;                           // distinct ids asked for and missing
};

} // namespace stepscope
