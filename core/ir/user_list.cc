#include "core/ir/user_list.h"

#include <algorithm>
#include <new>
#include <limits>
#include <utility>

#include "core/ir/flat_pointer_map.h"

namespace airscope {

// User -> slot, in a flat table (a user added to a node of 50,000 users is
// a probe, not a malloc). The table never removes a key: a removed user's
// entry says kRemoved until Compact() rebuilds the table from the live
// slots, which also bounds the dead entries by the number of holes.
struct UserList::SideIndex {
  static constexpr uint32_t kRemoved = std::numeric_limits<uint32_t>::max();
  FlatNodeMap<uint32_t> slot_of;
  uint32_t holes = 0;

  uint32_t* Live(const Node* user) {
    uint32_t* slot = slot_of.Find(user);
    return slot && *slot != kRemoved ? slot : nullptr;
  }
  void Rebuild(Node* const* slots, uint32_t used) {
    slot_of = FlatNodeMap<uint32_t>(used * 2);
    for (uint32_t i = 0; i < used; ++i) {
      if (slots[i]) slot_of[slots[i]] = i;
    }
  }
};

UserList::~UserList() {
  if (capacity_ > 1) delete[] many_;
  delete index_;
}

UserList::UserList(UserList&& other) noexcept
    : used_(std::exchange(other.used_, 0)),
      capacity_(std::exchange(other.capacity_, 1)),
      index_(std::exchange(other.index_, nullptr)) {
  if (capacity_ == 1) {
    one_ = other.one_;
  } else {
    many_ = other.many_;
  }
  other.one_ = nullptr;
}

UserList& UserList::operator=(UserList&& other) noexcept {
  if (this != &other) {
    this->~UserList();
    new (this) UserList(std::move(other));
  }
  return *this;
}

uint32_t UserList::holes() const { return index_ ? index_->holes : 0; }

bool UserList::Contains(const Node* user) const {
  if (index_) return index_->Live(user) != nullptr;
  Node* const* s = slots();
  return std::find(s, s + used_, user) != s + used_;
}

void UserList::Grow(size_t min_capacity) {
  size_t capacity = std::max<size_t>(min_capacity, size_t{capacity_} * 2);
  capacity = std::max<size_t>(capacity, 2);
  Node** grown = new Node*[capacity];
  std::copy(slots(), slots() + used_, grown);
  if (capacity_ > 1) delete[] many_;
  many_ = grown;
  capacity_ = static_cast<uint32_t>(capacity);
}

void UserList::Reserve(size_t count) {
  if (count > capacity_) Grow(count);
}

void UserList::BuildIndex() {
  index_ = new SideIndex;
  index_->Rebuild(slots(), used_);
}

void UserList::Append(Node* user) {
  if (used_ == capacity_) Grow(used_ + 1);
  if (index_) index_->slot_of[user] = used_;
  slots()[used_++] = user;
  if (!index_ && used_ >= kIndexedFrom) BuildIndex();
}

bool UserList::Remove(const Node* user) {
  Node** s = slots();
  if (!index_) {
    // From the back: passes rewrite and erase late users first (dce walks
    // backwards), so the one sought is usually the last.
    for (uint32_t i = used_; i-- > 0;) {
      if (s[i] == user) {
        std::copy(s + i + 1, s + used_, s + i);
        --used_;
        return true;
      }
    }
    return false;
  }
  uint32_t* slot = index_->Live(user);
  if (slot == nullptr) return false;
  s[*slot] = nullptr;
  *slot = SideIndex::kRemoved;
  ++index_->holes;
  if (index_->holes * 2 > used_) Compact();
  return true;
}

void UserList::Compact() {
  Node** s = slots();
  uint32_t kept = 0;
  for (uint32_t i = 0; i < used_; ++i) {
    if (s[i]) s[kept++] = s[i];
  }
  used_ = kept;
  index_->holes = 0;
  index_->Rebuild(s, used_);
}

void UserList::Clear() {
  used_ = 0;
  if (index_) {
    index_->slot_of = FlatNodeMap<uint32_t>();
    index_->holes = 0;
  }
}

}  // namespace airscope
