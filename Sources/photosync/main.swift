import Foundation
import PhotoSyncKit

// Not argument-parser's main(): PhotoSyncCommand.execute keeps every error to one stderr line
// (usage errors included) and sets up logging from --verbose once parsing succeeded.
exit(PhotoSyncCommand.execute())
