internal import GRDB

extension StoreFailure {
    init(_ error: DatabaseError) {
        self.init(message: error.message ?? "\(error)", resultCode: error.resultCode.rawValue,
                  extendedResultCode: error.extendedResultCode.rawValue)
    }
}
