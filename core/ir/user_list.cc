#include "core/ir/user_list.h"

#include <algorithm>
#include <new>
#include <unordered_map>
#include <utility>

namespace airscope {

struct UserList::SideIndex {
  std::unordered_map<const Node*, uint32_t> slot_of;  // live users only
  uint32_t holes = 0;
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
  if (index_) return index_->slot_of.count(user) != 0;
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
  index_->slot_of.reserve(used_ * 2);
  Node** s = slots();
  for (uint32_t i = 0; i < used_; ++i) index_->slot_of.emplace(s[i], i);
}

void UserList::Append(Node* user) {
  if (used_ == capacity_) Grow(used_ + 1);
  if (index_) index_->slot_of.emplace(user, used_);
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
  auto it = index_->slot_of.find(user);
  if (it == index_->slot_of.end()) return false;
  s[it->second] = nullptr;
  index_->slot_of.erase(it);
  ++index_->holes;
  if (index_->holes * 2 > used_) Compact();
  return true;
}

void UserList::Compact() {
  Node** s = slots();
  uint32_t kept = 0;
  for (uint32_t i = 0; i < used_; ++i) {
    if (!s[i]) continue;
    if (kept != i) index_->slot_of[s[i]] = kept;
    s[kept++] = s[i];
  }
  used_ = kept;
  index_->holes = 0;
}

void UserList::Clear() {
  used_ = 0;
  if (index_) {
    index_->slot_of.clear();
    index_->holes = 0;
  }
}

}  // namespace airscope
