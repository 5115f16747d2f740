//! The zip archive of a written package (`--zip FILE`), the form
//! DOMjudge's problem import takes: every file stored without compression
//! and dated 1980-01-01, so the same package gives the same bytes.

use super::files;
use crate::error::{Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

/// Writes the files below `dir` as the zip archive `file` (entries named
/// relative to `dir`, in sorted order); through a temporary file beside
/// it. Linear in the package's bytes, all held in memory.
///
/// # Errors
///
/// A file of `dir` that cannot be read (`Error::Read`), `file` that cannot
/// be written (`Error::Write`), or a package over the 4 GB (or 65,535
/// files) a plain zip holds (`Error::Package`).
pub fn write_zip(dir: &Path, file: &Path) -> Result<()> {
    let mut names = Vec::new();
    list_files(dir, Path::new(""), &mut names)?;
    names.sort();
    let mut archive: Vec<u8> = Vec::new();
    let mut central: Vec<u8> = Vec::new();
    for name in &names {
        let path = dir.join(name);
        let data = files::read_bytes(&path)?;
        let mode: u32 = if files::is_executable(&path)? { 0o100755 } else { 0o100644 };
        let name = name.to_string_lossy().replace('\\', "/");
        let (crc, size) = (crc32(&data), data.len() as u32);
        let offset = archive.len() as u32;
        // Local header: signature, version 2.0, flags (bit 11: UTF-8
        // names), method 0 (stored), time and date 0, CRC, sizes, name.
        archive.extend(0x0403_4b50u32.to_le_bytes());
        archive.extend([20, 0, 0, 8, 0, 0, 0, 0, 0x21, 0]);
        archive.extend(crc.to_le_bytes());
        archive.extend(size.to_le_bytes());
        archive.extend(size.to_le_bytes());
        archive.extend((name.len() as u16).to_le_bytes());
        archive.extend([0, 0]);
        archive.extend(name.as_bytes());
        archive.extend(&data);
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend([20, 3, 20, 0, 0, 8, 0, 0, 0, 0, 0x21, 0]);
        central.extend(crc.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        // extra, comment, disk, internal attributes; external: the Unix
        // mode, -rwxr-xr-x for the build script, else -rw-r--r--.
        central.extend([0, 0, 0, 0, 0, 0, 0, 0]);
        central.extend((mode << 16).to_le_bytes());
        central.extend(offset.to_le_bytes());
        central.extend(name.as_bytes());
    }
    if archive.len() + central.len() > u32::MAX as usize || names.len() > usize::from(u16::MAX) {
        return Err(Error::package("the package is too big for a zip archive (4 GB)"));
    }
    let (count, start) = (names.len() as u16, archive.len() as u32);
    let central_size = central.len() as u32;
    archive.extend(central);
    archive.extend(0x0605_4b50u32.to_le_bytes());
    archive.extend([0, 0, 0, 0]);
    archive.extend(count.to_le_bytes());
    archive.extend(count.to_le_bytes());
    archive.extend(central_size.to_le_bytes());
    archive.extend(start.to_le_bytes());
    archive.extend([0, 0]);
    let temp = file.with_extension(format!("kit-package-{}", std::process::id()));
    fs::write(&temp, &archive).map_err(|e| Error::write(temp.display(), e))?;
    fs::rename(&temp, file).map_err(|e| {
        let _ = fs::remove_file(&temp);
        Error::write(file.display(), e)
    })
}

/// The files below `root.join(below)`, named relative to `root`.
fn list_files(root: &Path, below: &Path, names: &mut Vec<PathBuf>) -> Result<()> {
    let folder = root.join(below);
    for entry in files::entries(&folder)? {
        let name = below.join(entry.file_name());
        if entry.path().is_dir() {
            list_files(root, &name, names)?;
        } else {
            names.push(name);
        }
    }
    Ok(())
}

/// CRC-32 (IEEE, reflected), as zip wants it.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::crc32;

    #[test]
    fn crc32_is_the_ieee_one() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }
}
