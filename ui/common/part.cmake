# The page kit shared by every page: tones, the one page message type, the page header, the
# message banner, the worker thread, the confirm hook, the write gate and the statistics watch.
sluice_ui_sources(tone.h pagemessage.h confirm.h filedialog.h workerthread.h pageheader messagebanner
    elidedlabel theme flowlayout
    durationfield overridefields fieldform patterndraft patternform tablemodel writegate statswatch wheelguard windowplace)
