import ArgumentParser
import PhotoSyncKit

PhotoSyncCommand.main()
