"""The application: command line, live session, speech, web page, recording and replay."""
