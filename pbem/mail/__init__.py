"""Email for the judge: settings, finding order blocks in mails, IMAP intake and SMTP output.

Standard library only (``email``, ``imaplib``, ``smtplib``); imported only by the judge.
"""
