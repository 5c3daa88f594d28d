-- 1: How many visits has each site had?
SELECT TOP 5 v.SiteID, COUNT(*) FROM dbo.[Site Visits] AS v JOIN dbo.tblObs ON tblObs.SiteID = v.SiteID GROUP BY v.SiteID;
