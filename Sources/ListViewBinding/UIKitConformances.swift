// `UITableView` and `UICollectionView` already have every method the protocols require, with
// the same names and types: they conform as they are.
#if canImport(UIKit)
    import UIKit

    extension UITableView: TableViewUpdating {}
    extension UICollectionView: CollectionViewUpdating {}
#endif
