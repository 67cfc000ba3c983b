#include "models/store/annotation_store.h"

#include <chrono>

namespace stepscope {

namespace {
int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}
} // namespace

std::vector<Annotation> AnnotationStore::annotations() const {
    SqliteStatement st(m_store.db(), "SELECT id, start_ns, end_ns, text, color, created_ns FROM annotation ORDER BY start_ns, id");
    std::vector<Annotation> out;
    while (st.step()) {
        Annotation a;
        a.id = st.columnInt(0);
        a.startNs = st.columnInt(1);
        a.endNs = st.columnInt(2);
        a.text = st.columnText(3);
        a.color = st.columnText(4);
        a.createdNs = st.columnInt(5);
        out.push_back(std::move(a));
    }
    return out;
}

int64_t AnnotationStore::insert(const Annotation &a) {
    SqliteStatement st(m_store.db(), "INSERT INTO annotation(id, start_ns, end_ns, text, color, created_ns) "
                                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    if (a.id > 0) st.bind(1, a.id);
    else st.bindNull(1);
    st.bind(2, a.startNs);
    st.bind(3, std::max(a.startNs, a.endNs));
    st.bind(4, std::string_view(a.text));
    st.bind(5, std::string_view(a.color));
    st.bind(6, a.createdNs > 0 ? a.createdNs : nowNs());
    st.run();
    const int64_t id = st.lastInsertId();
    m_store.checkpoint();  // what the user sees as saved is in the file itself, not only in -wal
    return id;
}

void AnnotationStore::update(const Annotation &a) {
    SqliteStatement st(m_store.db(), "UPDATE annotation SET start_ns = ?2, end_ns = ?3, text = ?4, color = ?5 WHERE id = ?1");
    st.bind(1, a.id);
    st.bind(2, a.startNs);
    st.bind(3, std::max(a.startNs, a.endNs));
    st.bind(4, std::string_view(a.text));
    st.bind(5, std::string_view(a.color));
    st.run();
    m_store.checkpoint();
}

void AnnotationStore::remove(int64_t id) {
    SqliteStatement st(m_store.db(), "DELETE FROM annotation WHERE id = ?1");
    st.bind(1, id);
    st.run();
    m_store.checkpoint();
}

std::vector<SavedView> AnnotationStore::savedViews() const {
    SqliteStatement st(m_store.db(), "SELECT id, name, start_ns, end_ns, COALESCE(layout, '') FROM bookmark ORDER BY id");
    std::vector<SavedView> out;
    while (st.step())
        out.push_back({st.columnInt(0), st.columnText(1), st.columnInt(2), st.columnInt(3), st.columnText(4)});
    return out;
}

int64_t AnnotationStore::insert(const SavedView &v) {
    SqliteStatement st(m_store.db(), "INSERT INTO bookmark(name, start_ns, end_ns, layout) VALUES (?1, ?2, ?3, ?4)");
    st.bind(1, std::string_view(v.name));
    st.bind(2, v.startNs);
    st.bind(3, v.endNs);
    if (v.layout.empty()) st.bindNull(4);
    else st.bind(4, std::string_view(v.layout));
    st.run();
    const int64_t id = st.lastInsertId();
    m_store.checkpoint();  // what the user sees as saved is in the file itself, not only in -wal
    return id;
}

void AnnotationStore::update(const SavedView &v) {
    SqliteStatement st(m_store.db(), "UPDATE bookmark SET name = ?2, start_ns = ?3, end_ns = ?4, layout = ?5 WHERE id = ?1");
    st.bind(1, v.id);
    st.bind(2, std::string_view(v.name));
    st.bind(3, v.startNs);
    st.bind(4, v.endNs);
    if (v.layout.empty()) st.bindNull(5);
    else st.bind(5, std::string_view(v.layout));
    st.run();
    m_store.checkpoint();
}

void AnnotationStore::removeSavedView(int64_t id) {
    SqliteStatement st(m_store.db(), "DELETE FROM bookmark WHERE id = ?1");
    st.bind(1, id);
    st.run();
    m_store.checkpoint();
}

} // namespace stepscope
