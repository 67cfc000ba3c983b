#include "importers/metrics/nvidia_smi_csv_parser.h"

namespace stepscope::metrics {

namespace {
// Columns that are text by nature; other columns become text when their first value is not a number.
bool isTextKey(std::string_view key) {
    static const char *const kText[] = {"name", "gpu_name", "driver_version", "vbios_version", "serial",
                                        "gpu_serial", "pstate", "compute_mode", "persistence_mode",
                                        "display_mode", "display_active", "accounting.mode", "mig.mode.current",
                                        "mig.mode.pending", "inforom.img", "gom.current", "gom.pending"};
    for (const char *t : kText)
        if (key == t) return true;
    return false;
}

void applyUnit(NvidiaSmiCsvParser::Column &c, std::string_view unit) {
    if (unit == "MiB") {
        c.unit = "B";
        c.scale = 1024.0 * 1024.0;
    } else if (unit == "KiB") {
        c.unit = "B";
        c.scale = 1024.0;
    } else if (unit == "GiB") {
        c.unit = "B";
        c.scale = 1024.0 * 1024.0 * 1024.0;
    } else {
        c.unit = std::string(unit);
        c.scale = 1.0;
    }
}
} // namespace

bool NvidiaSmiCsvParser::isHeader(std::string_view line) {
    line = trim(line);
    return startsWith(line, "timestamp, ") || line == "timestamp";
}

bool NvidiaSmiCsvParser::parseHeader(std::string_view line) {
    if (!isHeader(line)) return false;
    m_columns.clear();
    m_keyOrder.clear();
    m_timeCol = m_indexCol = m_keyCol = -1;
    splitFields(line, ',', m_fields);
    int uuidCol = -1, busCol = -1;
    for (size_t i = 0; i < m_fields.size(); ++i) {
        std::string_view f = m_fields[i];
        std::string_view unit;
        size_t lb = f.find(" [");
        if (lb != std::string_view::npos && f.back() == ']') {
            unit = f.substr(lb + 2, f.size() - lb - 3);
            f = trim(f.substr(0, lb));
        }
        Column c;
        c.key = std::string(f);
        c.series = c.key;
        applyUnit(c, unit);
        if (c.key == "timestamp") {
            c.role = Role::Time;
            if (m_timeCol < 0) m_timeCol = int(i);
        } else if (c.key == "index") {
            c.role = Role::Index;
            m_indexCol = int(i);
        } else if (c.key == "uuid" || c.key == "gpu_uuid") {
            c.role = Role::GpuKey;
            uuidCol = int(i);
        } else if (c.key == "pci.bus_id" || c.key == "gpu_bus_id") {
            c.role = Role::GpuKey;
            busCol = int(i);
        } else if (isTextKey(c.key)) {
            c.role = Role::Text;
        } else if (c.key == "utilization.gpu") {
            c.series = "gpu_util";
            c.unit = "%";
        } else if (c.key == "utilization.memory") {
            c.series = "gpu_mem_util";
            c.unit = "%";
        } else if (c.key == "memory.used") {
            c.series = "gpu_mem_used";
            if (unit.empty()) applyUnit(c, "MiB");  // nvidia-smi reports MiB
        } else if (unit.empty() && startsWith(c.key, "temperature.")) {
            c.unit = "C";
        }
        m_columns.push_back(std::move(c));
    }
    m_keyCol = uuidCol >= 0 ? uuidCol : busCol;
    return true;
}

bool NvidiaSmiCsvParser::parseRow(std::string_view line, Row &row, std::string &error,
                                  std::vector<std::string> &problems) {
    problems.clear();
    splitFields(line, ',', m_fields);
    if (m_fields.size() != m_columns.size()) {
        error = "expected " + std::to_string(m_columns.size()) + " fields as in the header, found " +
                std::to_string(m_fields.size());
        return false;
    }
    auto ct = parseCivilTime(m_fields[size_t(m_timeCol)]);
    if (!ct) {
        error = "timestamp '" + std::string(m_fields[size_t(m_timeCol)]) + "' is not YYYY/MM/DD HH:MM:SS.mmm";
        return false;
    }
    row.tNs = m_time.toEpochNs(*ct);
    if (m_indexCol >= 0) {
        auto idx = parseInt(m_fields[size_t(m_indexCol)]);
        if (!idx || *idx < 0) {
            error = "GPU index '" + std::string(m_fields[size_t(m_indexCol)]) + "' is not a number";
            return false;
        }
        row.device = *idx;
    } else if (m_keyCol >= 0) {
        std::string key(m_fields[size_t(m_keyCol)]);
        auto it = m_keyOrder.find(key);
        if (it == m_keyOrder.end()) it = m_keyOrder.emplace(key, int64_t(m_keyOrder.size())).first;
        row.device = it->second;
    } else {
        row.device = 0;
    }
    row.values.assign(m_columns.size(), std::nullopt);
    for (size_t i = 0; i < m_columns.size(); ++i) {
        Column &c = m_columns[i];
        if (c.role != Role::Value || isMissing(m_fields[i])) continue;
        std::string unit;
        auto v = parseNumberWithUnit(m_fields[i], &unit);
        if (!v) {
            if (!c.sawNumber) {  // a text column nvidia-smi added since, or a broken first value
                c.role = Role::Text;
                if (looksLikeBrokenNumber(m_fields[i]))  // meant as a number: say why the column is gone
                    problems.push_back(c.key + " = '" + fieldSample(m_fields[i]) + "' (the column is not imported)");
            } else {
                problems.push_back(c.key + " = '" + fieldSample(m_fields[i]) + "'");
            }
            continue;
        }
        if (!c.sawNumber && c.unit.empty() && !unit.empty()) applyUnit(c, unit);
        c.sawNumber = true;
        row.values[i] = *v * c.scale;
    }
    return true;
}

} // namespace stepscope::metrics
