/// The rule for every source whose list is the whole truth (custom lists, Breaking Bad's
/// deaths): an upstream that suddenly answers with an empty list, or one that would
/// remove more than half of what is stored, is more likely broken than right. Such a
/// list is refused, and the stored rows stay, unless the source says `allow_shrink = true`.
enum ShrinkGuard {
    /// `minimumStored`: below this many stored rows only the empty-list rule applies
    /// (a list of 3 losing 2 is ordinary editing).
    static func check(what: String, removing toRemove: Int, of stored: Int, incoming: Int, allowed: Bool,
                      minimumStored: Int, httpStatus: Int?) throws(SourceFailure) {
        guard !allowed, stored > 0 else { return }
        if incoming == 0 {
            throw SourceFailure("refusing an empty list of \(what) that would remove all \(stored) stored (allow_shrink = true accepts it)",
                                httpStatus: httpStatus)
        }
        if stored >= minimumStored, toRemove * 2 > stored {
            throw SourceFailure("refusing a list that would remove \(toRemove) of \(stored) \(what) (allow_shrink = true accepts it)",
                                httpStatus: httpStatus)
        }
    }
}
