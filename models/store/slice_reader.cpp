#include "models/store/slice_reader.h"

#include "models/store/reused_statement.h"

namespace stepscope {

namespace {
StoredFlow storedFlowRow(const SqliteStatement &st) {
    return {st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(5),
            st.columnInt(3), st.columnInt(6), st.columnInt(4), st.columnInt(7)};
}

StoredSlice storedSliceRow(const SqliteStatement &st) {
    return {st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(3), st.columnInt(4), st.columnInt(5)};
}
} // namespace

struct SliceReader::Statements {
    SqliteStatement startingIn, flowsFrom, flowsTo, childrenIn, childrenOf, flowsOfFrom, flowsOfTo;
};

SliceReader::SliceReader(const SessionConnection &connection) : m_conn(connection), m_st(std::make_unique<Statements>()) {}
SliceReader::~SliceReader() = default;

void SliceReader::forEachStartingIn(int64_t trackId, int64_t from, int64_t to, const std::function<void(const StoredSlice &)> &visit) {
    SqliteStatement &st = reusedStatement(m_st->startingIn, m_conn.db(),
        "SELECT id, track_id, start_ns, dur_ns, name_id, depth FROM slice "
        "WHERE track_id = ?1 AND start_ns >= ?2 AND start_ns < ?3 ORDER BY start_ns");
    st.bind(1, trackId);
    st.bind(2, from);
    st.bind(3, to);
    while (st.step()) visit(storedSliceRow(st));
    st.reset();
}

std::vector<StoredFlow> SliceReader::flowsTouching(int64_t trackId, int64_t from, int64_t to) {
    std::vector<StoredFlow> out;
    // One statement per side, each joining the flow's index on that side.
    SqliteStatement *sides[] = {
        &reusedStatement(m_st->flowsFrom, m_conn.db(), "SELECT f.from_slice_id, f.to_slice_id, a.track_id, a.start_ns + a.dur_ns, "
            "a.depth, b.track_id, b.start_ns, b.depth FROM slice s CROSS JOIN flow f ON f.from_slice_id = s.id "
            "JOIN slice a ON a.id = f.from_slice_id JOIN slice b ON b.id = f.to_slice_id "
            "WHERE s.track_id = ?1 AND s.start_ns >= ?2 AND s.start_ns < ?3"),
        &reusedStatement(m_st->flowsTo, m_conn.db(), "SELECT f.from_slice_id, f.to_slice_id, a.track_id, a.start_ns + a.dur_ns, "
            "a.depth, b.track_id, b.start_ns, b.depth FROM slice s CROSS JOIN flow f ON f.to_slice_id = s.id "
            "JOIN slice a ON a.id = f.from_slice_id JOIN slice b ON b.id = f.to_slice_id "
            "WHERE s.track_id = ?1 AND s.start_ns >= ?2 AND s.start_ns < ?3")};
    for (SqliteStatement *st : sides) {
        st->bind(1, trackId);
        st->bind(2, from);
        st->bind(3, to);
        while (st->step()) out.push_back(storedFlowRow(*st));
        st->reset();
    }
    return out;
}

std::vector<StoredFlow> SliceReader::flowsOf(int64_t sliceId, int limitPerSide) {
    std::vector<StoredFlow> out;
    // Both directions, each through its index (flow_from_slice, flow_to_slice).
    SqliteStatement *sides[] = {
        &reusedStatement(m_st->flowsOfFrom, m_conn.db(), "SELECT f.from_slice_id, f.to_slice_id, a.track_id, a.start_ns + a.dur_ns, "
            "a.depth, b.track_id, b.start_ns, b.depth FROM flow f JOIN slice a ON a.id = f.from_slice_id "
            "JOIN slice b ON b.id = f.to_slice_id WHERE f.from_slice_id = ?1 LIMIT ?2"),
        &reusedStatement(m_st->flowsOfTo, m_conn.db(), "SELECT f.from_slice_id, f.to_slice_id, a.track_id, a.start_ns + a.dur_ns, "
            "a.depth, b.track_id, b.start_ns, b.depth FROM flow f JOIN slice a ON a.id = f.from_slice_id "
            "JOIN slice b ON b.id = f.to_slice_id WHERE f.to_slice_id = ?1 LIMIT ?2")};
    for (SqliteStatement *st : sides) {
        st->bind(1, sliceId);
        st->bind(2, int64_t(limitPerSide));
        while (st->step()) out.push_back(storedFlowRow(*st));
        st->reset();
    }
    return out;
}

void SliceReader::forEachChildStartingIn(int64_t trackId, int64_t from, int64_t to,
                                         const std::function<bool(const StoredChild &)> &visit) {
    SqliteStatement &st = reusedStatement(m_st->childrenIn, m_conn.db(),
        "SELECT parent_id, start_ns, dur_ns FROM slice WHERE track_id = ?1 AND start_ns >= ?2 AND start_ns <= ?3 "
        "AND parent_id IS NOT NULL");
    st.bind(1, trackId);
    st.bind(2, from);
    st.bind(3, to);
    while (st.step())
        if (!visit({st.columnInt(0), st.columnInt(1), st.columnInt(2)})) break;
    st.reset();
}

std::vector<StoredChild> SliceReader::childrenOf(int64_t trackId, int64_t sliceId, int64_t from, int64_t to) {
    SqliteStatement &st = reusedStatement(m_st->childrenOf, m_conn.db(),
        "SELECT start_ns, dur_ns FROM slice WHERE track_id = ?1 AND start_ns >= ?2 AND start_ns <= ?3 AND parent_id = ?4");
    st.bind(1, trackId);
    st.bind(2, from);
    st.bind(3, to);
    st.bind(4, sliceId);
    std::vector<StoredChild> out;
    while (st.step()) out.push_back({sliceId, st.columnInt(0), st.columnInt(1)});
    st.reset();
    return out;
}

void SliceReader::forEachByTrack(const std::function<void(const StoredSlice &)> &visit) {
    SqliteStatement st(m_conn.db(), "SELECT id, track_id, start_ns, dur_ns, name_id, depth FROM slice ORDER BY track_id, start_ns");
    while (st.step()) visit(storedSliceRow(st));
}

} // namespace stepscope
