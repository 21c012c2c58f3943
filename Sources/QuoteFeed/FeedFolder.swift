import Glibc
import QuoteBase
import QuoteSystem

/// The feed folder and its `by-hash` folder as the publisher writes in them: readable by the web
/// server, and `by-hash` a folder of its own, never a link to one elsewhere.
enum FeedFolder {
    /// Makes `folder` and `byHash` where they are missing, mode 0755 whatever the umask: the web
    /// server reads them as another user.
    static func make(_ folder: String, _ byHash: String) throws(FeedFailure) {
        for path in [folder, byHash] where !Path.exists(path) {
            do throws(FileSystemError) {
                try FileSystem.makeDirectory(path, mode: 0o755)
            } catch where error.errno.code != EEXIST {
                throw FeedFailure("cannot create \(path): \(error.errno)")
            } catch {}
            try? FileSystem.setPermissions(path, 0o755)
        }
    }

    /// Refuses `byHash` unless it is a folder itself: through a link, the feed's files would be
    /// written, and old ones pruned, in a folder that is not the feed's.
    static func refuseLink(_ byHash: String) throws(FeedFailure) {
        let status: FileStatus
        do throws(FileSystemError) {
            status = try FileSystem.status(byHash, followingLinks: false)
        } catch {
            throw FeedFailure("cannot read \(byHash): \(error.errno)")
        }
        switch status.kind {
        case .directory:
            return
        case .symbolicLink:
            throw FeedFailure("\(byHash) is a symbolic link: the feed writes and prunes its own folder only (remove the link; publish makes the folder)")
        default:
            throw FeedFailure("\(byHash) is not a folder (remove it; publish makes the folder)")
        }
    }
}
