/// The memo's invariants (`Internal/README.md`, "Key record and slot"), internal checks only.
extension MemoTable {
    /// Every object of `record` has a slot that says what it says. Call with `lock` locked.
    @inline(__always)
    func checkInvariants(_ record: KeyRecord) {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            let table = tables[tables.count - 1]
            for object in record.objects {
                precondition(recordsByObject[KeyOrType(object: object)] === record)
                precondition(
                    records[KeyOrType(key: object)] === record,
                    "an object's record is its value's record")
                precondition(
                    table.entryWord(for: Self.address(of: object), at: record.generation)
                        == record.entryWord, "every slot of a key says what its record says")
            }
            precondition(objectCount <= limit && record.objects.count <= keyLimit)
        #endif
    }
}
