#pragma once
// SliceLookup answers the questions asked about single slices and names: a slice's details, its
// parent chain, the slices it is linked to (by flow, or by correlation id near it in its run), the
// slice drawn at a place, the text of an interned string, and the slices whose name contains a
// text (search). Statements are prepared on first use and kept for the lookup's life. Called by
// TimelineModel (details, names), TimelineSearchModel and RangeAggregateModel (names).

#include "models/store/session_connection.h"
#include "models/store/session_store.h"
#include "models/store/slice_reader.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

// One slice as the details pane shows it; times relative to its run's time base.
struct StoredSliceDetails {
    int64_t trackId = 0, startNs = 0, durNs = 0, depth = 0;
    std::optional<int64_t> parentId;
    std::string name, category;
    std::optional<int64_t> correlation;
    std::string argsJson;
};

// A slice named with its span: a parent, or a slice linked to another.
struct StoredSliceRef {
    int64_t id = 0, trackId = 0, startNs = 0, durNs = 0;
    std::string name;
    std::optional<int64_t> parentId;
};

class SliceLookup {
public:
    explicit SliceLookup(const SessionConnection &connection);
    explicit SliceLookup(const SessionStore &store) : SliceLookup(store.connection()) {}
    ~SliceLookup();
    SliceLookup(const SliceLookup &) = delete;
    SliceLookup &operator=(const SliceLookup &) = delete;

    std::optional<StoredSliceDetails> details(int64_t sliceId);
    // One slice by id with its parent's id (walking up a parent chain).
    std::optional<StoredSliceRef> slice(int64_t sliceId);
    // The slices the flows of `sliceId` lead to (`outgoing`) or come from.
    std::vector<StoredSliceRef> flowLinked(int64_t sliceId, bool outgoing);
    // Other slices of the run with the same correlation id that start in [from, to], at most `limit`.
    std::vector<StoredSliceRef> correlated(int64_t runId, int64_t correlation, int64_t from, int64_t to,
                                           int64_t exceptSliceId, int limit);
    // The longest slice of a track at a start and depth (the one the timeline draws there).
    std::optional<int64_t> sliceAt(int64_t trackId, int64_t startNs, int64_t depth);
    // The text of an interned string; empty when there is none.
    std::string text(int64_t stringId);
    // The slices whose name contains `needle` (case as SQL's LIKE: ASCII letters in any case), in
    // no order. `visit` returns false to stop.
    void forEachNamedLike(const std::string &needle, const std::function<bool(const StoredSlice &)> &visit);

private:
    struct Statements;
    const SessionConnection &m_conn;
    std::unique_ptr<Statements> m_st;
};

} // namespace stepscope
