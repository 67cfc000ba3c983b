#pragma once
// AnnotationStore reads and writes the user-data tables `annotation` and `bookmark` (saved views) of
// one session (resources/schema/002_user_data.sql). Re-import never touches these tables, so what is
// written here survives it and travels with the .stepscope file. Times are absolute ns on the
// session's axis (the axis of SessionReader and TimeRangeController). AnnotationModel and
// SavedViewModel call it; tests call it directly.

#include "models/store/session_store.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace stepscope {

struct Annotation {
    int64_t id = 0;           // row id; 0 for one not stored (transient, or not yet inserted)
    int64_t startNs = 0;
    int64_t endNs = 0;        // == startNs for a point note
    std::string text;
    std::string color = "#f5a623";
    int64_t createdNs = 0;
    bool transient = false;   // drawn but never written (export --annotate, evidence screenshots)

    bool isPoint() const { return endNs <= startNs; }
    bool overlaps(int64_t lo, int64_t hi) const { return startNs <= hi && std::max(startNs, endNs) >= lo; }
};

struct SavedView {
    int64_t id = 0;
    std::string name;
    int64_t startNs = 0, endNs = 0;
    std::string layout;  // timeline track layout (JSON: hidden tracks, collapsed groups); may be empty
};

class AnnotationStore {
public:
    explicit AnnotationStore(SessionStore &store) : m_store(store) {}

    std::vector<Annotation> annotations() const;  // by start time
    int64_t insert(const Annotation &a);          // returns the new id (keeps a.id when it is set)
    void update(const Annotation &a);
    void remove(int64_t id);

    std::vector<SavedView> savedViews() const;    // in creation order
    int64_t insert(const SavedView &v);
    void update(const SavedView &v);
    void removeSavedView(int64_t id);

private:
    SessionStore &m_store;
};

} // namespace stepscope
