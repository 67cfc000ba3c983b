#include "models/store/slice_lookup.h"

#include "models/store/reused_statement.h"

namespace stepscope {

namespace {
std::optional<int64_t> optionalColumn(const SqliteStatement &st, int col) {
    return st.columnIsNull(col) ? std::nullopt : std::optional<int64_t>(st.columnInt(col));
}

// Rows of "SELECT s.id, s.track_id, s.start_ns, s.dur_ns, n.text ...".
std::vector<StoredSliceRef> sliceRefs(SqliteStatement &st) {
    std::vector<StoredSliceRef> out;
    while (st.step()) out.push_back({st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(3), st.columnText(4), {}});
    st.reset();
    return out;
}
} // namespace

struct SliceLookup::Statements {
    SqliteStatement details, slice, flowTo, flowFrom, correlated, sliceAt, text, named;
};

SliceLookup::SliceLookup(const SessionConnection &connection) : m_conn(connection), m_st(std::make_unique<Statements>()) {}
SliceLookup::~SliceLookup() = default;

std::optional<StoredSliceDetails> SliceLookup::details(int64_t sliceId) {
    SqliteStatement &st = reusedStatement(m_st->details, m_conn.db(),
        "SELECT s.track_id, s.start_ns, s.dur_ns, s.depth, s.parent_id, n.text, c.text, s.correlation, s.args "
        "FROM slice s JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.category_id WHERE s.id = ?1");
    st.bind(1, sliceId);
    if (!st.step()) return std::nullopt;
    StoredSliceDetails d{st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(3), optionalColumn(st, 4),
                         st.columnText(5), st.columnText(6), optionalColumn(st, 7), st.columnText(8)};
    st.reset();
    return d;
}

std::optional<StoredSliceRef> SliceLookup::slice(int64_t sliceId) {
    SqliteStatement &st = reusedStatement(m_st->slice, m_conn.db(),
        "SELECT s.id, s.track_id, s.start_ns, s.dur_ns, n.text, s.parent_id FROM slice s JOIN string n ON n.id = s.name_id "
        "WHERE s.id = ?1");
    st.bind(1, sliceId);
    if (!st.step()) return std::nullopt;
    StoredSliceRef r{st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(3), st.columnText(4), optionalColumn(st, 5)};
    st.reset();
    return r;
}

std::vector<StoredSliceRef> SliceLookup::flowLinked(int64_t sliceId, bool outgoing) {
    SqliteStatement &st = outgoing
        ? reusedStatement(m_st->flowTo, m_conn.db(), "SELECT s.id, s.track_id, s.start_ns, s.dur_ns, n.text FROM flow f "
              "JOIN slice s ON s.id = f.to_slice_id JOIN string n ON n.id = s.name_id WHERE f.from_slice_id = ?1")
        : reusedStatement(m_st->flowFrom, m_conn.db(), "SELECT s.id, s.track_id, s.start_ns, s.dur_ns, n.text FROM flow f "
              "JOIN slice s ON s.id = f.from_slice_id JOIN string n ON n.id = s.name_id WHERE f.to_slice_id = ?1");
    st.bind(1, sliceId);
    return sliceRefs(st);
}

std::vector<StoredSliceRef> SliceLookup::correlated(int64_t runId, int64_t correlation, int64_t from, int64_t to,
                                                    int64_t exceptSliceId, int limit) {
    SqliteStatement &st = reusedStatement(m_st->correlated, m_conn.db(),
        "SELECT s.id, s.track_id, s.start_ns, s.dur_ns, n.text FROM track t JOIN slice s ON s.track_id = t.id "
        "AND s.start_ns BETWEEN ?2 AND ?3 JOIN string n ON n.id = s.name_id "
        "WHERE t.run_id = ?1 AND s.correlation = ?4 AND s.id <> ?5 LIMIT ?6");
    st.bind(1, runId);
    st.bind(2, from);
    st.bind(3, to);
    st.bind(4, correlation);
    st.bind(5, exceptSliceId);
    st.bind(6, int64_t(limit));
    return sliceRefs(st);
}

std::optional<int64_t> SliceLookup::sliceAt(int64_t trackId, int64_t startNs, int64_t depth) {
    SqliteStatement &st = reusedStatement(m_st->sliceAt, m_conn.db(),
        "SELECT id FROM slice WHERE track_id = ?1 AND start_ns = ?2 AND depth = ?3 ORDER BY dur_ns DESC LIMIT 1");
    st.bind(1, trackId);
    st.bind(2, startNs);
    st.bind(3, depth);
    std::optional<int64_t> id;
    if (st.step()) id = st.columnInt(0);
    st.reset();
    return id;
}

std::string SliceLookup::text(int64_t stringId) {
    SqliteStatement &st = reusedStatement(m_st->text, m_conn.db(), "SELECT text FROM string WHERE id = ?1");
    st.bind(1, stringId);
    std::string out = st.step() ? st.columnText(0) : std::string();
    st.reset();
    return out;
}

void SliceLookup::forEachNamedLike(const std::string &needle, const std::function<bool(const StoredSlice &)> &visit) {
    // LIKE's wildcards and the escape character in the needle stand for themselves.
    std::string pattern = "%";
    for (char c : needle) {
        if (c == '\\' || c == '%' || c == '_') pattern += '\\';
        pattern += c;
    }
    pattern += '%';
    SqliteStatement &st = reusedStatement(m_st->named, m_conn.db(),
        "SELECT s.id, s.track_id, s.start_ns, s.dur_ns, s.name_id, s.depth FROM slice s "
        "WHERE s.name_id IN (SELECT id FROM string WHERE text LIKE ?1 ESCAPE '\\')");
    st.bind(1, std::string_view(pattern));
    while (st.step())
        if (!visit({st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(3), st.columnInt(4), st.columnInt(5)})) break;
    st.reset();
}

} // namespace stepscope
