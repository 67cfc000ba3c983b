#include "models/store/sample_reader.h"

#include "models/store/reused_statement.h"

namespace stepscope {

struct SampleReader::Statements {
    SqliteStatement metric, counter;
};

SampleReader::SampleReader(const SessionConnection &connection) : m_conn(connection), m_st(std::make_unique<Statements>()) {}
SampleReader::~SampleReader() = default;

void SampleReader::forEachMetricSample(int64_t seriesId, const std::function<bool(int64_t tNs, double value)> &visit) {
    SqliteStatement &st = reusedStatement(m_st->metric, m_conn.db(),
                                          "SELECT t_ns, value FROM metric_sample WHERE series_id = ?1 ORDER BY t_ns");
    st.bind(1, seriesId);
    while (st.step())
        if (!visit(st.columnInt(0), st.columnDouble(1))) break;
    st.reset();
}

void SampleReader::forEachCounterSample(int64_t trackId, const std::function<void(int64_t tNs, double value)> &visit) {
    SqliteStatement &st = reusedStatement(m_st->counter, m_conn.db(),
                                          "SELECT t_ns, value FROM counter_sample WHERE track_id = ?1 ORDER BY t_ns");
    st.bind(1, trackId);
    while (st.step()) visit(st.columnInt(0), st.columnDouble(1));
    st.reset();
}

int64_t SampleReader::metricSampleBound() {
    SqliteStatement st(m_conn.db(), "SELECT COALESCE(max(rowid), 0) FROM metric_sample");
    return st.step() ? st.columnInt(0) : 0;
}

} // namespace stepscope
