#pragma once
// CsvMetricParser tokenizes "a time column plus numeric columns" CSV files (pure C++, no store):
// it detects the separator (',' ';' or tab), the time column (the first whose name contains
// "time"/"date", else the first column) and the time encoding from the first row -- epoch
// seconds/ms/µs/ns by magnitude, or ISO 8601 / "YYYY-MM-DD HH:MM:SS" with or without a zone
// (without: local time of this process). Column units come from a trailing "[unit]" or "(unit)".
// Used by GenericCsvImporter and CloudWatchCsvImporter, and by tests.

#include "importers/metrics/metric_text.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::metrics {

class CsvMetricParser {
public:
    struct Column {
        std::string header;  // as written
        std::string name;    // header without its unit suffix
        std::string unit;
        bool isTime = false;
        bool isText = false;     // first value was not a number: ignored
        std::string textSample;  // that first value, as fieldSample() quotes it
        bool brokenNumber = false;  // ... and it was surely meant as a number (looksLikeBrokenNumber)
        bool sawNumber = false;
    };
    enum class TimeKind { Unknown, Civil, Epoch };

    // Reads the header line; false when it has fewer than two columns.
    bool parseHeader(std::string_view line);
    const std::vector<Column> &columns() const { return m_columns; }
    int timeColumn() const { return m_timeCol; }
    char separator() const { return m_sep; }

    // One data row: time and one optional value per column. False with `error` when the row has
    // no usable time or the wrong number of fields; `problems` lists non-numeric fields.
    bool parseRow(std::string_view line, int64_t &tNs, std::vector<std::optional<double>> &values,
                  std::string &error, std::vector<std::string> &problems);

    // Zone-less civil times are UTC instead of local time (CloudWatch).
    void setZonelessUtc(bool utc) { m_zonelessUtc = utc; }

    TimeKind timeKind() const { return m_kind; }
    EpochUnit epochUnit() const { return m_unit; }
    bool sawZonelessTime() const { return m_zoneless; }
    bool relativeTimes() const { return m_relative; }  // epoch values before 1973: not wall clock

    // Cheap sniff: header with >= 2 columns, then a row whose time field parses and with at least
    // one other numeric field. `headerOut` receives the header fields.
    static bool looksLikeMetricCsv(std::string_view head, std::vector<std::string> *headerOut = nullptr);

private:
    std::optional<int64_t> parseTime(std::string_view field);

    std::vector<Column> m_columns;
    std::vector<std::string> m_fields;
    char m_sep = ',';
    int m_timeCol = 0;
    TimeKind m_kind = TimeKind::Unknown;
    EpochUnit m_unit = EpochUnit::Seconds;
    bool m_zoneless = false, m_relative = false, m_zonelessUtc = false;
    CivilTimeConverter m_conv;
};

} // namespace stepscope::metrics
