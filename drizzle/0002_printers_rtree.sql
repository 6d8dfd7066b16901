-- A 2-D R*Tree over printers' coordinates: "printers within N miles" reads only the nearby boxes.
-- Points are stored as zero-size boxes; the R*Tree keeps 32-bit floats rounded outwards, so it is
-- only a prefilter and the exact distance is computed from printers.latitude/longitude.
CREATE VIRTUAL TABLE `printers_rtree` USING rtree(id, min_lat, max_lat, min_lon, max_lon);
--> statement-breakpoint
INSERT INTO `printers_rtree` (id, min_lat, max_lat, min_lon, max_lon)
	SELECT id, latitude, latitude, longitude, longitude FROM `printers`
	WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `printers_rtree_insert` AFTER INSERT ON `printers`
	WHEN new.latitude IS NOT NULL AND new.longitude IS NOT NULL BEGIN
	INSERT INTO printers_rtree (id, min_lat, max_lat, min_lon, max_lon)
		VALUES (new.id, new.latitude, new.latitude, new.longitude, new.longitude);
END;
--> statement-breakpoint
CREATE TRIGGER `printers_rtree_update` AFTER UPDATE OF latitude, longitude ON `printers` BEGIN
	DELETE FROM printers_rtree WHERE id = old.id;
	INSERT INTO printers_rtree (id, min_lat, max_lat, min_lon, max_lon)
		SELECT new.id, new.latitude, new.latitude, new.longitude, new.longitude
		WHERE new.latitude IS NOT NULL AND new.longitude IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `printers_rtree_delete` AFTER DELETE ON `printers` BEGIN
	DELETE FROM printers_rtree WHERE id = old.id;
END;
